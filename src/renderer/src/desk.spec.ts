import { fireEvent, screen, waitFor, within } from '@testing-library/svelte'
import { tick } from 'svelte'
import { describe, expect, it } from 'vitest'
import { renderApp } from './testing/render-app'

const input = (): HTMLInputElement => screen.getByRole('combobox', { name: 'Add symbol' })

async function type(text: string): Promise<void> {
  await fireEvent.input(input(), { target: { value: text } })
}

async function enter(): Promise<void> {
  await fireEvent.keyDown(input(), { key: 'Enter' })
}

describe('search by name (combobox)', () => {
  it('offers commodity:XAUUSD with its market and name for "gold"; Enter adds the first', async () => {
    const { api } = await renderApp()
    input().focus()
    await type('gold')
    const listbox = await screen.findByRole('listbox', { name: 'Instruments' })
    const options = within(listbox).getAllByRole('option')
    expect(options[0]?.textContent).toMatch(/Cmdty\s*XAUUSD\s*Gold spot/)
    expect(options[0]?.getAttribute('aria-selected')).toBe('true')
    expect(input().getAttribute('aria-expanded')).toBe('true')
    expect(input().getAttribute('aria-activedescendant')).toBe(options[0]?.id)
    await enter()
    await waitFor(() => expect(api.state.watchlists[0]?.symbols).toContain('commodity:XAUUSD'))
    expect(api.callsOf('addSymbols')).toEqual([{ id: 'w1', inputs: ['commodity:XAUUSD'] }])
    expect(input().value).toBe('')
  })

  it('moves through the options with the arrow keys and adds the chosen one', async () => {
    const { api } = await renderApp()
    input().focus()
    await type('gold')
    await screen.findByRole('listbox')
    await fireEvent.keyDown(input(), { key: 'ArrowDown' })
    const chosen = screen.getAllByRole('option')[1] as HTMLElement
    expect(chosen.getAttribute('aria-selected')).toBe('true')
    expect(input().getAttribute('aria-activedescendant')).toBe(chosen.id)
    await enter()
    await waitFor(() => expect(api.state.watchlists[0]?.symbols).toContain('futures:GC1!'))
  })

  it('adds a typed market:SYMBOL as typed on Enter, even when another instrument is listed first', async () => {
    const { api } = await renderApp()
    input().focus()
    await type('crypto:BTC')
    const listbox = await screen.findByRole('listbox')
    const first = within(listbox).getAllByRole('option')[0] as HTMLElement
    expect(first.dataset.key).toBe('crypto:BTCUSDT')
    // Nothing is highlighted: Enter takes the text, which is what the highlight would say.
    expect(first.getAttribute('aria-selected')).toBe('false')
    expect(input().getAttribute('aria-activedescendant')).toBeNull()
    await enter()
    await waitFor(() =>
      expect(api.callsOf('addSymbols')).toEqual([{ id: 'w1', inputs: ['crypto:BTC'] }]),
    )
  })

  it('adds the option the arrows moved to instead of the typed market:SYMBOL', async () => {
    const { api } = await renderApp()
    input().focus()
    await type('crypto:BTC')
    await screen.findByRole('listbox')
    await fireEvent.keyDown(input(), { key: 'ArrowDown' })
    await enter()
    await waitFor(() =>
      expect(api.callsOf('addSymbols')).toEqual([{ id: 'w1', inputs: ['crypto:BTCUSDT'] }]),
    )
  })

  it('closes the list with Escape and keeps the text', async () => {
    await renderApp()
    input().focus()
    await type('tencent')
    await screen.findByRole('listbox')
    await fireEvent.keyDown(input(), { key: 'Escape' })
    expect(screen.queryByRole('listbox')).toBeNull()
    expect(input().value).toBe('tencent')
    expect(document.activeElement).toBe(input())
  })

  it('warns before an add that would slow polling, from the host budget preview', async () => {
    const { api } = await renderApp({
      watchlists: [
        { id: 'w1', name: 'Main', symbols: Array.from({ length: 20 }, (_, i) => `fx:P${i}USD`) },
      ],
    })
    input().focus()
    await type('hk')
    await screen.findByRole('listbox')
    await waitFor(() => expect(screen.getByText(/would slow polling to every ~\d+ s/)).toBeTruthy())
    expect(api.callsOf('previewBudget')).toContainEqual({ id: 'w1', add: ['hk:00700'] })
  })

  it('says plainly when nothing matches', async () => {
    await renderApp()
    input().focus()
    await type('zzzz')
    await waitFor(() => expect(screen.getByText(/No instrument matches “zzzz”/)).toBeTruthy())
  })
})

describe('adding while earlier adds are in flight', () => {
  it('keeps every symbol typed ahead, and never clears what was typed after a submit', async () => {
    const { api } = await renderApp()
    api.holdAdds = true
    input().focus()
    const typed = ['fx:USDJPY', 'crypto:ETHUSDT', 'hk:09988', 'index:SPX']
    for (const key of typed) {
      await type(key)
      await enter()
      expect(input().value).toBe('')
    }
    await type('cn:6005')
    api.releaseAdds()
    await waitFor(() =>
      expect(api.state.watchlists[0]?.symbols).toEqual(['crypto:BTCUSDT', 'fx:EURUSD', ...typed]),
    )
    await tick()
    // The replies arrived after the trader had started the next symbol: it is still there.
    expect(input().value).toBe('cn:6005')
  })
})

describe('pasting a list', () => {
  it('adds every symbol of a pasted list and says what was added and what was not', async () => {
    const { api } = await renderApp({ watchlists: [{ id: 'w1', name: 'Main', symbols: [] }] })
    const keys = Array.from({ length: 20 }, (_, i) => `crypto:C${i}USDT`)
    const text = `${keys.slice(0, 10).join('\n')}\n${keys.slice(10).join(', ')} nonsense`
    input().focus()
    await fireEvent.paste(input(), { clipboardData: { getData: () => text } })
    await waitFor(() => expect(api.state.watchlists[0]?.symbols).toEqual(keys))
    const report = await screen.findByTestId('add-report')
    expect(report.textContent).toMatch(/Added 20: crypto:C0USDT/)
    expect(report.textContent).toMatch(/Not added 1: nonsense/)
    expect(input().value).toBe('')
  })
})

describe('plan-budget line', () => {
  it('shows what the list costs and changes when a symbol is added', async () => {
    const { api } = await renderApp({
      watchlists: [
        { id: 'w1', name: 'Main', symbols: Array.from({ length: 11 }, (_, i) => `fx:P${i}USD`) },
      ],
    })
    const words = await screen.findByTestId('budget-words')
    expect(words.textContent).toBe('this list: 10 streamed · 1 polled every ~6 s · 12/27 req/min')
    await api.invoke('addSymbols', { id: 'w1', inputs: ['fx:EXTRAUSD'] })
    await waitFor(() =>
      expect(screen.getByTestId('budget-words').textContent).toBe(
        'this list: 10 streamed · 2 polled every ~7 s · 12/27 req/min',
      ),
    )
  })
})

describe('layout', () => {
  it('keeps alerts in a side panel that is closed until opened, and remembers it', async () => {
    const { api } = await renderApp()
    expect(screen.queryByTestId('alerts-panel')).toBeNull()
    const toggle = screen.getByRole('button', { name: /^Alerts/ })
    expect(toggle.getAttribute('aria-expanded')).toBe('false')
    await fireEvent.click(toggle)
    expect(await screen.findByTestId('alerts-panel')).toBeTruthy()
    expect(api.state.settings.layout.alertsOpen).toBe(true)
    await fireEvent.click(screen.getByRole('button', { name: 'Close alerts' }))
    expect(screen.queryByTestId('alerts-panel')).toBeNull()
    expect(api.state.settings.layout.alertsOpen).toBe(false)
  })

  it('docks the chart below the grid with a keyboard-resizable splitter whose size is saved', async () => {
    const { api, app } = await renderApp()
    expect(screen.queryByRole('separator')).toBeNull()
    app.openKey = 'crypto:BTCUSDT'
    const splitter = await screen.findByRole('separator', { name: 'Resize chart' })
    expect(splitter.getAttribute('aria-valuenow')).toBe('45')
    await fireEvent.keyDown(splitter, { key: 'ArrowUp' })
    expect(splitter.getAttribute('aria-valuenow')).toBe('50')
    await fireEvent.keyDown(splitter, { key: 'End' })
    expect(splitter.getAttribute('aria-valuenow')).toBe('20')
    await waitFor(() => expect(api.state.settings.layout.detailSize).toBe(0.2))
  })

  it('says what to do when a list is empty and when there is no list', async () => {
    const { api } = await renderApp({ watchlists: [{ id: 'w1', name: 'Main', symbols: [] }] })
    expect(screen.getByTestId('empty-list').textContent).toMatch(
      /Main has no symbols yet.*add box/s,
    )
    await api.invoke('deleteWatchlist', { id: 'w1' })
    const none = await screen.findByTestId('no-watchlists')
    await fireEvent.click(within(none).getByRole('button', { name: 'New watchlist' }))
    await waitFor(() => expect(api.state.watchlists).toHaveLength(1))
  })

  it('opens a symbol the strip asked for (openSymbol event) in the docked chart', async () => {
    const { api, app } = await renderApp()
    api.emit({ type: 'openSymbol', key: 'fx:EURUSD' })
    await tick()
    expect(app.openKey).toBe('fx:EURUSD')
    expect(await screen.findByRole('separator')).toBeTruthy()
  })

  it('draws its icons from one sprite', async () => {
    await renderApp()
    expect(document.querySelectorAll('svg symbol[id^="icon-"]').length).toBeGreaterThan(8)
    const uses = [...document.querySelectorAll('use')].map((u) => u.getAttribute('href'))
    expect(uses.length).toBeGreaterThan(3)
    for (const href of uses) expect(document.querySelector(href as string)).not.toBeNull()
  })
})
