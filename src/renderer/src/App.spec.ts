import { fireEvent, screen, waitFor, within } from '@testing-library/svelte'
import { tick } from 'svelte'
import { describe, expect, it } from 'vitest'
import { baseStatus, quote } from './testing/fake-api'
import { cell, lastCell, row } from './testing/grid-rows'
import { renderApp, type Rendered } from './testing/render-app'
import type { Snapshot } from '../../shared/bridge'

async function setup(snapshot: Partial<Snapshot> = {}, reducedMotion = false): Promise<Rendered> {
  return renderApp(snapshot, { reducedMotion })
}

describe('watchlist rows', () => {
  it('renders one keyed row per symbol with prices formatted per market', async () => {
    await setup({
      quotes: [
        quote('crypto:BTCUSDT', {
          last: 64321.5,
          change: 120.25,
          changePercent: 0.19,
          volume: 1_234_567,
          ts: 1,
        }),
        quote('fx:EURUSD', { last: 1.08457, bid: 1.08455, ask: 1.08459, ts: 1 }),
      ],
    })
    expect(document.querySelectorAll('tbody tr[data-key]')).toHaveLength(2)
    expect(cell('crypto:BTCUSDT', 'last')).toBe('64,321.50')
    expect(cell('crypto:BTCUSDT', 'change')).toBe('+120.25')
    expect(cell('crypto:BTCUSDT', 'changePercent')).toBe('+0.19%')
    expect(cell('crypto:BTCUSDT', 'volume')).toBe('1.23M')
    expect(cell('fx:EURUSD', 'last')).toBe('1.08457')
    expect(cell('fx:EURUSD', 'ask')).toBe('1.08459')
    expect(cell('fx:EURUSD', 'high')).toBe('—')
  })

  it('shows Cached with the quote age for snapshot quotes, and Live without age once streaming', async () => {
    const { api, clock, frame } = await setup({
      quotes: [
        quote('crypto:BTCUSDT', {
          last: 100,
          source: 'cache',
          ts: new Date(2025, 10, 21, 14, 3).getTime(),
        }),
      ],
    })
    const badge = within(row('crypto:BTCUSDT')).getByTestId('source-badge')
    expect(badge.textContent).toBe('Cached')
    expect(row('crypto:BTCUSDT').textContent).toContain('as of 14:03')
    api.pushQuotes([{ key: 'crypto:BTCUSDT', last: 101, source: 'stream', ts: clock.now }])
    await frame()
    expect(badge.textContent).toBe('Live')
    expect(within(row('crypto:BTCUSDT')).queryByTestId('quote-age')).toBeNull()
  })

  it('says Not in plan or Unknown symbol from per-symbol status codes', async () => {
    await setup({
      symbolStatuses: [
        {
          key: 'crypto:BTCUSDT',
          code: 'MARKET_NOT_ENABLED',
          message: 'crypto is not on your plan',
        },
        { key: 'fx:EURUSD', code: 'UNKNOWN_SYMBOL', message: 'no such symbol' },
      ],
    })
    expect(within(row('crypto:BTCUSDT')).getByTestId('source-badge').textContent).toBe(
      'Not in plan',
    )
    expect(within(row('fx:EURUSD')).getByTestId('source-badge').textContent).toBe('Unknown symbol')
  })

  it('flashes up on a price rise for ~600 ms, and never under reduced motion', async () => {
    const { api, timers, clock, frame } = await setup({
      quotes: [quote('crypto:BTCUSDT', { last: 100, ts: 1 })],
    })
    api.pushQuotes([{ key: 'crypto:BTCUSDT', last: 101 }])
    await frame()
    expect(lastCell('crypto:BTCUSDT').classList.contains('flash-up')).toBe(true)
    clock.now += 600
    for (const fn of timers.splice(0)) fn()
    await tick()
    expect(lastCell('crypto:BTCUSDT').classList.contains('flash-up')).toBe(false)
    api.pushQuotes([{ key: 'crypto:BTCUSDT', last: 99 }])
    await frame()
    expect(lastCell('crypto:BTCUSDT').classList.contains('flash-down')).toBe(true)
  })

  it('does not flash when the trader prefers reduced motion', async () => {
    const { api, frame } = await setup(
      { quotes: [quote('crypto:BTCUSDT', { last: 100, ts: 1 })] },
      true,
    )
    api.pushQuotes([{ key: 'crypto:BTCUSDT', last: 101 }])
    await frame()
    expect(lastCell('crypto:BTCUSDT').className).not.toMatch(/flash-(up|down)/)
    expect(cell('crypto:BTCUSDT', 'last')).toBe('101.00')
  })

  it('keeps the same row element across ticks (keyed, patched in place)', async () => {
    const { api, frame } = await setup({ quotes: [quote('fx:EURUSD', { last: 1.1, ts: 1 })] })
    const before = row('fx:EURUSD')
    api.pushQuotes([{ key: 'fx:EURUSD', last: 1.2 }])
    await frame()
    expect(row('fx:EURUSD')).toBe(before)
    expect(cell('fx:EURUSD', 'last')).toBe('1.20000')
  })

  it('applies batches once per animation frame, latest value per field', async () => {
    const { api, frame } = await setup({
      quotes: [quote('fx:EURUSD', { last: 1.1, bid: 1.09, ts: 1 })],
    })
    const texts: string[] = []
    const observer = new MutationObserver(() => texts.push(cell('fx:EURUSD', 'last')))
    observer.observe(row('fx:EURUSD'), { subtree: true, characterData: true, childList: true })
    api.pushQuotes([{ key: 'fx:EURUSD', last: 1.2, bid: 1.19 }])
    api.pushQuotes([{ key: 'fx:EURUSD', last: 1.3 }])
    await tick()
    expect(cell('fx:EURUSD', 'last')).toBe('1.10000')
    await frame()
    await Promise.resolve()
    observer.disconnect()
    expect(cell('fx:EURUSD', 'last')).toBe('1.30000')
    expect(cell('fx:EURUSD', 'bid')).toBe('1.19000')
    // The price text was written once, straight to the newest value.
    expect(texts.filter((t, i) => t !== texts[i - 1])).toEqual(['1.30000'])
  })

  it('marks rows stale when the feed goes offline', async () => {
    const { api } = await setup({ quotes: [quote('fx:EURUSD', { last: 1.1, ts: 1 })] })
    api.setStatus(baseStatus({ state: 'offline' }))
    await tick()
    expect(row('fx:EURUSD').classList.contains('stale')).toBe(true)
    expect(within(row('fx:EURUSD')).getByTestId('source-badge').textContent).toBe('Stale')
  })

  it('sorts by a column header click and sets aria-sort', async () => {
    await setup({
      quotes: [quote('crypto:BTCUSDT', { last: 5, ts: 1 }), quote('fx:EURUSD', { last: 1, ts: 1 })],
    })
    const header = screen.getByRole('button', { name: 'Last' })
    await fireEvent.click(header)
    expect(header.closest('th')?.getAttribute('aria-sort')).toBe('ascending')
    const keys = [...document.querySelectorAll('tbody tr[data-key]')].map((r) =>
      r.getAttribute('data-key'),
    )
    expect(keys).toEqual(['fx:EURUSD', 'crypto:BTCUSDT'])
  })
})

describe('status bar', () => {
  it('shows the connection words, stream and budget use, and the DEMO badge', async () => {
    const { api, clock } = await setup()
    const bar = screen.getByTestId('status-bar')
    expect(screen.getByTestId('connection-state').textContent).toBe('Live')
    expect(screen.queryByTestId('demo-badge')).toBeNull()
    api.setStatus(
      baseStatus({
        state: 'offline',
        retryAt: clock.now + 3000,
        demo: true,
        stream: { state: 'reconnecting', symbols: 4, cap: 10 },
        budget: { usedLastMinute: 12, perMinute: 27, callsToday: 5 },
      }),
    )
    await tick()
    expect(screen.getByTestId('connection-state').textContent).toBe('Reconnecting in 3 s')
    expect(screen.getByTestId('demo-badge')).toBeTruthy()
    expect(bar.textContent).toContain('all lists: 4 of 10 stream slots')
    expect(bar.textContent).toContain('12/27 req/min')
    api.setStatus(baseStatus({ state: 'paused', code: 'MONTHLY_LIMIT_EXCEEDED' }))
    await tick()
    expect(screen.getByTestId('connection-state').textContent).toBe('Paused: quota')
  })
})

describe('watchlist tabs and adding symbols', () => {
  it('creates, renames and deletes a watchlist from the actions menu beside the tabs, by keyboard', async () => {
    const { api } = await setup()
    const tabs = screen.getByTestId('watchlist-tabs')
    const menuButton = within(tabs).getByRole('button', { name: 'Watchlist actions' })
    expect(menuButton.getAttribute('aria-haspopup')).toBe('menu')
    menuButton.focus()
    await fireEvent.keyDown(menuButton, { key: 'ArrowDown' })
    const menu = await screen.findByRole('menu', { name: 'Watchlist actions' })
    expect(document.activeElement?.textContent).toBe('New list…')
    await fireEvent.keyDown(menu, { key: 'Enter' })
    expect(screen.queryByRole('menu')).toBeNull()
    await fireEvent.input(screen.getByLabelText('New watchlist name'), {
      target: { value: 'Asia' },
    })
    await fireEvent.click(screen.getByRole('button', { name: 'Create' }))
    await waitFor(() =>
      expect(within(tabs).getByRole('tab', { name: 'Asia' }).getAttribute('aria-selected')).toBe(
        'true',
      ),
    )

    await fireEvent.click(menuButton)
    await fireEvent.click(screen.getByRole('menuitem', { name: 'Rename…' }))
    await fireEvent.input(screen.getByLabelText('Watchlist name'), { target: { value: 'Asia FX' } })
    await fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(within(tabs).getByRole('tab', { name: 'Asia FX' })).toBeTruthy())

    // Arrow keys in the menu: Delete… is two below New list…; Escape returns to the button.
    menuButton.focus()
    await fireEvent.keyDown(menuButton, { key: 'Enter' })
    const again = await screen.findByRole('menu')
    await fireEvent.keyDown(again, { key: 'ArrowDown' })
    await fireEvent.keyDown(again, { key: 'ArrowDown' })
    expect(document.activeElement?.textContent).toBe('Delete…')
    await fireEvent.keyDown(again, { key: 'Escape' })
    expect(screen.queryByRole('menu')).toBeNull()
    expect(document.activeElement).toBe(menuButton)
    await fireEvent.click(menuButton)
    await fireEvent.click(screen.getByRole('menuitem', { name: 'Delete…' }))
    expect(api.callsOf('deleteWatchlist')).toHaveLength(0)
    await fireEvent.click(screen.getByRole('button', { name: 'Confirm delete' }))
    await waitFor(() => expect(within(tabs).queryByRole('tab', { name: 'Asia FX' })).toBeNull())
    expect(api.state.watchlists.map((w) => w.name)).toEqual(['Main'])
  })

  it('keeps the watchlist shortcuts quiet while the actions menu has the keyboard', async () => {
    const { api } = await setup()
    await fireEvent.keyDown(window, { key: 'j' })
    const menuButton = screen.getByRole('button', { name: 'Watchlist actions' })
    await fireEvent.click(menuButton)
    await fireEvent.keyDown(screen.getByRole('menu'), { key: 'Delete' })
    expect(api.callsOf('removeSymbol')).toEqual([])
  })

  it('moves the selected symbol with Alt+ArrowDown and removes it with Delete', async () => {
    const { api } = await setup()
    await fireEvent.keyDown(window, { key: 'j' })
    await fireEvent.keyDown(window, { key: 'ArrowDown', altKey: true })
    await waitFor(() =>
      expect(api.state.watchlists[0]?.symbols).toEqual(['fx:EURUSD', 'crypto:BTCUSDT']),
    )
    await fireEvent.keyDown(window, { key: 'Delete' })
    await waitFor(() => expect(api.state.watchlists[0]?.symbols).toEqual(['fx:EURUSD']))
  })
})
