import { fireEvent, screen, waitFor, within } from '@testing-library/svelte'
import { tick } from 'svelte'
import { describe, expect, it } from 'vitest'
import { quote } from './testing/fake-api'
import { renderApp } from './testing/render-app'

const headerTexts = (): string[] =>
  [...document.querySelectorAll('table.watchlist thead th')].map(
    (th) => th.textContent?.trim() ?? '',
  )
const rowKeys = (): string[] =>
  [...document.querySelectorAll('tbody tr[data-key]')].map((r) => r.getAttribute('data-key') ?? '')

const LISTS = [
  { id: 'w1', name: 'Main', symbols: ['crypto:BTCUSDT', 'fx:EURUSD'] },
  { id: 'w2', name: 'Other', symbols: ['fx:EURUSD', 'crypto:BTCUSDT'] },
]
const QUOTES = [
  quote('crypto:BTCUSDT', { last: 5, trades: 12_345, ts: 1 }),
  quote('fx:EURUSD', { last: 1, trades: 7, ts: 1 }),
]

describe('the grid’s columns and sort', () => {
  it('shows the chosen columns in their order, trades included, and no cell for a hidden one', async () => {
    const { api } = await renderApp({ quotes: QUOTES })
    await api.invoke('updateSettings', { grid: { columns: ['trades', 'last'] } })
    await tick()
    expect(headerTexts()).toEqual(['Symbol', 'Trades', 'Last', 'Actions'])
    const btc = document.querySelector('tr[data-key="crypto:BTCUSDT"]') as HTMLElement
    expect(btc.querySelector('[data-field="trades"]')?.textContent?.trim()).toBe('12.3K')
    expect(btc.querySelector('[data-field="change"]')).toBeNull()
  })

  it('remembers a sort for its own list only, in settings', async () => {
    const { api } = await renderApp({ quotes: QUOTES, watchlists: LISTS })
    await fireEvent.click(screen.getByRole('button', { name: 'Last' }))
    await waitFor(() => expect(rowKeys()).toEqual(['fx:EURUSD', 'crypto:BTCUSDT']))
    await waitFor(() =>
      expect(api.callsOf('updateSettings')).toEqual([
        { grid: { sorts: { w1: { column: 'last', direction: 'ascending' } } } },
      ]),
    )
    await api.invoke('setActiveWatchlist', { id: 'w2' })
    await tick()
    expect(rowKeys()).toEqual(['fx:EURUSD', 'crypto:BTCUSDT'])
    const last = screen.getByRole('button', { name: 'Last' }).closest('th') as HTMLElement
    expect(last.getAttribute('aria-sort')).toBe('none')
    await fireEvent.click(screen.getByRole('button', { name: 'Symbol' }))
    await fireEvent.click(screen.getByRole('button', { name: 'Symbol' }))
    await waitFor(() => expect(rowKeys()).toEqual(['fx:EURUSD', 'crypto:BTCUSDT']))
    await api.invoke('setActiveWatchlist', { id: 'w1' })
    await tick()
    expect(rowKeys()).toEqual(['fx:EURUSD', 'crypto:BTCUSDT'])
    await waitFor(() =>
      expect(api.state.settings.grid.sorts).toEqual({
        w1: { column: 'last', direction: 'ascending' },
        w2: { column: 'symbol', direction: 'descending' },
      }),
    )
  })

  it('changes density and columns from the chooser, by keyboard', async () => {
    const { api } = await renderApp({ quotes: QUOTES })
    const button = screen.getByRole('button', { name: 'Columns' })
    await fireEvent.click(button)
    const dialog = screen.getByRole('dialog', { name: 'Columns and density' })
    const box = within(dialog).getByRole('checkbox', { name: 'Change %' })
    await waitFor(() =>
      expect(document.activeElement).toBe(within(dialog).getByRole('checkbox', { name: 'Last' })),
    )
    await fireEvent.click(box)
    await fireEvent.click(within(dialog).getByRole('radio', { name: 'Compact' }))
    await waitFor(() => expect(api.state.settings.grid.density).toBe('compact'))
    expect(api.state.settings.grid.columns).not.toContain('changePercent')
    expect(document.querySelector('table.watchlist.compact')).not.toBeNull()
    await fireEvent.keyDown(dialog, { key: 'Escape' })
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(document.activeElement).toBe(button)
  })
  it('leaves no tone or flash of the symbol a row showed before a re-sort', async () => {
    const { api, frame } = await renderApp({
      quotes: [
        quote('crypto:BTCUSDT', { last: 100, change: -2, ts: 1 }),
        quote('fx:EURUSD', { last: 1, change: 0, ts: 1 }),
      ],
      watchlists: [LISTS[0] as (typeof LISTS)[number]],
    })
    const cellIn = (row: number, field: string): HTMLElement => {
      const rows = document.querySelectorAll('tbody tr[data-key]')
      return rows.item(row).querySelector(`[data-field="${field}"]`) as HTMLElement
    }
    api.pushQuotes([{ key: 'crypto:BTCUSDT', last: 101, change: -1 }])
    await frame()
    expect(rowKeys()).toEqual(['crypto:BTCUSDT', 'fx:EURUSD'])
    expect(cellIn(0, 'last').classList.contains('flash-up')).toBe(true)
    expect(cellIn(0, 'change').classList.contains('down')).toBe(true)
    // Rows are kept by position: the first row now shows EURUSD, which neither moved nor fell.
    await fireEvent.click(screen.getByRole('button', { name: 'Symbol' }))
    await fireEvent.click(screen.getByRole('button', { name: 'Symbol' }))
    await waitFor(() => expect(rowKeys()).toEqual(['fx:EURUSD', 'crypto:BTCUSDT']))
    expect(cellIn(0, 'last').className).not.toMatch(/flash/)
    expect(cellIn(0, 'change').classList.contains('down')).toBe(false)
    expect(cellIn(1, 'last').classList.contains('flash-up')).toBe(true)
    expect(cellIn(1, 'change').classList.contains('down')).toBe(true)
  })
})
