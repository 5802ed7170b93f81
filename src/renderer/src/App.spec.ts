import { fireEvent, screen, waitFor, within } from '@testing-library/svelte'
import { tick } from 'svelte'
import { describe, expect, it } from 'vitest'
import { baseStatus, quote } from './testing/fake-api'
import { renderApp, type Rendered } from './testing/render-app'
import type { Snapshot } from '../../shared/bridge'

async function setup(snapshot: Partial<Snapshot> = {}, reducedMotion = false): Promise<Rendered> {
  return renderApp(snapshot, { reducedMotion })
}

function row(key: string): HTMLElement {
  const el = document.querySelector<HTMLElement>(`tbody tr[data-key="${key}"]`)
  if (!el) throw new Error(`no row ${key}`)
  return el
}
function lastCell(key: string): HTMLElement {
  const el = row(key).querySelector<HTMLElement>('[data-field="last"]')
  if (!el) throw new Error(`no last cell for ${key}`)
  return el
}
function cell(key: string, field: string): string {
  return row(key).querySelector(`[data-field="${field}"]`)?.textContent?.trim() ?? ''
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

describe('alerts', () => {
  it('sends the right addAlert params from the panel form, prefilled by "a" on a row', async () => {
    const { api } = await setup()
    await fireEvent.keyDown(window, { key: 'ArrowDown' })
    await fireEvent.keyDown(window, { key: 'a' })
    const panel = screen.getByTestId('alerts-panel')
    await waitFor(() =>
      expect((within(panel).getByLabelText('Symbol') as HTMLInputElement).value).toBe(
        'crypto:BTCUSDT',
      ),
    )
    await fireEvent.change(within(panel).getByLabelText('Condition'), {
      target: { value: 'crosses' },
    })
    await fireEvent.input(within(panel).getByLabelText('Price'), { target: { value: '65000' } })
    await fireEvent.change(within(panel).getByLabelText('Repeat'), { target: { value: 'rearm' } })
    await fireEvent.click(within(panel).getByRole('button', { name: 'Create alert' }))
    await waitFor(() => expect(api.callsOf('addAlert')).toHaveLength(1))
    expect(api.callsOf('addAlert')[0]).toEqual({
      key: 'crypto:BTCUSDT',
      condition: { kind: 'crosses', price: 65000 },
      repeat: 'rearm',
      cooldownSec: 60,
      note: '',
    })
    await waitFor(() => expect(within(panel).getByTestId('alert-state').textContent).toBe('armed'))
  })

  it('says a moving-average alert waits for its bars instead of looking armed, until they come', async () => {
    const rule = {
      id: 'ma1',
      key: 'crypto:BTCUSDT',
      condition: { kind: 'maCross', ma: 'ema', period: 20, interval: '15m', direction: 'any' },
      repeat: 'once',
      hysteresisPct: 0.2,
      cooldownSec: 60,
      expiresAt: null,
      note: '',
      createdAt: 1,
      enabled: true,
    } as const
    const waiting = {
      ruleId: 'ma1',
      status: 'armed',
      lastFiredAt: null,
      lastPrice: 100,
      lastSeenAt: 1,
      waitingBars: { have: 7, need: 20 },
    } as const
    const { api } = await setup({ alerts: [rule], alertStates: [waiting] })
    await fireEvent.keyDown(window, { key: 'ArrowDown' })
    await fireEvent.keyDown(window, { key: 'a' })
    const state = within(screen.getByTestId('alerts-panel')).getByTestId('alert-state')
    expect(state.textContent).toBe('waiting for bars (7 of 20)')
    api.emit({
      type: 'alerts',
      alerts: [rule],
      alertStates: [{ ...waiting, waitingBars: null }],
      alertHistory: [],
      webhooks: [],
    })
    await waitFor(() => expect(state.textContent).toBe('armed'))
  })

  it('shows each webhook destination by kind and host, from the view the bridge carries', async () => {
    const { api } = await setup()
    await fireEvent.keyDown(window, { key: 'ArrowDown' })
    await fireEvent.keyDown(window, { key: 'a' })
    api.emit({
      type: 'alerts',
      alerts: [],
      alertStates: [],
      alertHistory: [],
      webhooks: [
        {
          id: 'w1',
          host: 'hooks.slack.com',
          kind: 'slack',
          failures: 0,
          lastError: null,
          lastDeliveredAt: null,
          signed: false,
        },
        {
          id: 'w2',
          host: 'ntfy.sh',
          kind: 'ntfy',
          failures: 2,
          lastError: 'HTTP 500',
          lastDeliveredAt: null,
          signed: true,
        },
      ],
    })
    const list = await screen.findByTestId('webhooks')
    const rows = within(list)
      .getAllByRole('listitem')
      .map((li) => li.textContent?.replace(/\s+/g, ' ').trim())
    expect(rows[0]).toMatch(/^hooks\.slack\.com slack/)
    expect(rows[1]).toMatch(/^ntfy\.sh ntfy .*HTTP 500/)
  })

  it('lists a fire a webhook gave up on, and Drop keeps a line for it in the history', async () => {
    const fired = {
      id: 'f9',
      ruleId: 'a1',
      key: 'fx:EURUSD',
      message: 'EURUSD above 1.1',
      price: 1.1,
      at: 1,
      whileAway: false,
      awaySince: null,
      quoteAt: null,
      firedBy: 'runner',
    } as const
    const { api } = await setup({
      alertHistory: [fired],
      undelivered: [
        {
          fireId: 'f9',
          key: 'fx:EURUSD',
          message: 'EURUSD above 1.1',
          at: 1,
          to: 'webhook:w1',
          why: 'no answer within 5 s',
          gaveUpAt: 2,
        },
      ],
    })
    await fireEvent.keyDown(window, { key: 'ArrowDown' })
    await fireEvent.keyDown(window, { key: 'a' })
    const list = await screen.findByTestId('undelivered')
    expect(list.textContent).toContain('webhook:w1: no answer within 5 s')
    await fireEvent.click(within(list).getByRole('button', { name: 'Drop' }))
    await waitFor(() => expect(screen.queryByTestId('undelivered')).toBeNull())
    expect(api.calls.map((c) => c.name)).toContain('dropUndelivered')
    const panel = screen.getByTestId('alerts-panel')
    expect(panel.textContent).toContain('not delivered to webhook:w1 (dropped)')
  })

  it('shows a toast when an alert fires, marked for status readers', async () => {
    const { api } = await setup()
    api.emit({
      type: 'alertFired',
      alert: {
        id: 'f1',
        ruleId: 'a1',
        key: 'fx:EURUSD',
        message: 'EURUSD above 1.1',
        price: 1.1,
        at: 1,
        whileAway: false,
        awaySince: null,
        quoteAt: null,
        firedBy: 'app',
      },
    })
    await tick()
    const toast = screen.getByTestId('toast')
    expect(toast.textContent).toContain('EURUSD above 1.1')
    expect(toast.closest('[role="status"]')?.getAttribute('aria-live')).toBe('polite')
  })
})

describe('settings and notices', () => {
  it('sends the API key once and afterwards shows only the masked form, never the key', async () => {
    const { api } = await setup()
    await fireEvent.click(screen.getByRole('button', { name: 'Settings' }))
    const field = screen.getByLabelText('API key') as HTMLInputElement
    expect(field.type).toBe('password')
    await fireEvent.input(field, { target: { value: 'sk-live-1234abcd' } })
    await fireEvent.click(screen.getByRole('button', { name: 'Save key' }))
    await waitFor(() => expect(screen.getByTestId('key-masked').textContent).toBe('••••abcd'))
    expect(api.apiKeyForTest).toBe('sk-live-1234abcd')
    expect(document.body.innerHTML).not.toContain('sk-live-1234abcd')
    const values = [...document.querySelectorAll('input')].map((i) => i.value)
    expect(values).not.toContain('sk-live-1234abcd')
    expect(screen.getByRole('button', { name: 'Replace' })).toBeTruthy()
    await fireEvent.click(screen.getByRole('button', { name: 'Remove' }))
    await waitFor(() => expect(screen.queryByTestId('key-masked')).toBeNull())
  })

  it('changes the theme through updateSettings and reflects it on data-theme', async () => {
    const { api } = await setup()
    await fireEvent.click(screen.getByRole('button', { name: 'Settings' }))
    await fireEvent.change(screen.getByLabelText('Theme'), { target: { value: 'dark' } })
    await waitFor(() => expect(document.documentElement.dataset.theme).toBe('dark'))
    expect(api.callsOf('updateSettings')).toEqual([{ theme: 'dark' }])
    expect(api.state.settings.closeToTray).toBe(true)
  })

  it('shows notices as dismissible banners', async () => {
    const { api } = await setup({
      notices: [
        {
          id: 'n1',
          level: 'error',
          code: 'STORAGE_CORRUPT',
          message: 'watchlists.json was unreadable',
          detail: null,
          count: 1,
          at: 1,
        },
      ],
    })
    expect(screen.getByText('watchlists.json was unreadable')).toBeTruthy()
    await fireEvent.click(screen.getByRole('button', { name: 'Dismiss notice STORAGE_CORRUPT' }))
    await waitFor(() => expect(screen.queryByText('watchlists.json was unreadable')).toBeNull())
    expect(api.state.notices).toEqual([])
  })
})

describe('the first minute', () => {
  it('opens the keyboard shortcuts dialog on "?" and closes it with its button', async () => {
    await setup()
    expect(screen.queryByTestId('shortcuts-dialog')).toBeNull()
    await fireEvent.keyDown(window, { key: '?' })
    const dialog = await screen.findByTestId('shortcuts-dialog')
    expect(within(dialog).getByRole('heading', { name: 'Keyboard shortcuts' })).toBeTruthy()
    expect(dialog.textContent).toContain('New alert for the selected symbol')
    // While it is open the watchlist keys do nothing behind it.
    await fireEvent.keyDown(window, { key: '/' })
    expect(document.activeElement?.tagName).not.toBe('INPUT')
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }))
    await waitFor(() => expect(screen.queryByTestId('shortcuts-dialog')).toBeNull())
  })

  it('shows what demo mode is and where the key goes under a short list, until a key is in', async () => {
    const { api } = await setup({ status: baseStatus({ demo: true }) })
    const firstRun = screen.getByTestId('first-run')
    expect(firstRun.textContent).toContain('demo mode')
    await fireEvent.click(within(firstRun).getByRole('button', { name: 'Add your API key' }))
    expect(await screen.findByTestId('settings-panel')).toBeTruthy()
    // Nothing about a keychain until a key is typed.
    expect(document.body.textContent).not.toMatch(/keychain/i)
    api.emit({
      type: 'settings',
      settings: api.state.settings,
      keyInfo: {
        hasKey: true,
        masked: '••••abcd',
        storage: 'keychain',
        warning: null,
        warningDetail: null,
        forHost: null,
        withheld: null,
      },
    })
    api.emit({ type: 'status', status: baseStatus({ demo: false }) })
    await waitFor(() => expect(screen.queryByTestId('first-run')).toBeNull())
  })
})

describe('market sessions on the rows', () => {
  it('says a closed market is Closed with its next open, not Stale; crypto stays Live', async () => {
    // render-app's clock: Friday 21 Nov 2025, 16:30 UTC = Saturday 00:30 in Hong Kong.
    await setup({
      quotes: [
        quote('hk:00700', { last: 380.2, ts: 1, source: 'poll', stale: true }),
        quote('crypto:BTCUSDT', { last: 84000, ts: 1, source: 'stream' }),
      ],
      watchlists: [{ id: 'w1', name: 'Main', symbols: ['hk:00700', 'crypto:BTCUSDT'] }],
    })
    const hk = row('hk:00700')
    expect(within(hk).getByTestId('source-badge').textContent).toBe('Closed')
    // Short enough for the column (issue 40); the tooltip has it whole, zone and all.
    expect(within(hk).getByTestId('session-next').textContent).toBe('Mon 09:30')
    await fireEvent.pointerEnter(within(hk).getByTestId('source-badge').closest('td') as Element)
    expect(within(hk).getByTestId('source-badge').closest('td')?.title).toMatch(
      /^Closed, opens Mon 09:30 HKT/,
    )
    expect(hk.classList.contains('stale')).toBe(false)
    expect(within(row('crypto:BTCUSDT')).getByTestId('source-badge').textContent).toBe('Live')
  })

  it('believes a price that moves while the timetable says closed: live, trading off-hours', async () => {
    // Saturday 00:30 in Shanghai, yet the service pushes new prices for an A-share.
    const { api, clock, timers, frame } = await setup({
      quotes: [quote('cn:600519', { last: 1600, ts: 1, source: 'stream' })],
      watchlists: [{ id: 'w1', name: 'Main', symbols: ['cn:600519'] }],
    })
    const cn = row('cn:600519')
    expect(within(cn).getByTestId('source-badge').textContent).toBe('Closed')
    for (const last of [1601, 1602.5]) {
      clock.now += 1000
      api.pushQuotes([{ key: 'cn:600519', last, source: 'stream', ts: clock.now }])
      await frame()
      for (const fn of timers.splice(0)) fn()
      await tick()
    }
    expect(within(cn).getByTestId('source-badge').textContent).toBe('Live')
    expect(within(cn).getByTestId('outside-hours').textContent).toBe('off-hours')
    const td = within(cn).getByTestId('source-badge').closest('td') as HTMLElement
    await fireEvent.pointerEnter(td)
    expect(td.title).toMatch(/^Trading outside listed hours: .* Closed \(opens Mon 09:30 BJT\)/)
    // Once the prices stop for longer than the window, the timetable is believed again.
    clock.now += 6 * 60_000
    for (const fn of timers.splice(0)) fn()
    await tick()
    expect(within(cn).getByTestId('source-badge').textContent).toBe('Closed')
  })
})

/** "l" on the first row, then the lot form filled and sent as a trader would. */
async function addLotOnFirstRow(qty: string, cost: string): Promise<void> {
  await fireEvent.keyDown(window, { key: 'ArrowDown' })
  await fireEvent.keyDown(window, { key: 'l' })
  const form = await screen.findByTestId('lot-form')
  await fireEvent.input(within(form).getByLabelText('Quantity'), { target: { value: qty } })
  await fireEvent.input(within(form).getByLabelText('Cost'), { target: { value: cost } })
  await fireEvent.submit(form)
}

describe('positions', () => {
  it('takes a lot from the keyboard on a row and shows value and P&L that move with the price', async () => {
    const { api, app, frame, clock } = await setup({
      quotes: [quote('crypto:BTCUSDT', { last: 100, prevClose: 95, ts: 1 })],
      watchlists: [{ id: 'w1', name: 'Main', symbols: ['crypto:BTCUSDT'] }],
    })
    await fireEvent.keyDown(window, { key: 'ArrowDown' })
    await fireEvent.keyDown(window, { key: 'l' })
    const form = await screen.findByTestId('lot-form')
    const qty = within(form).getByLabelText('Quantity') as HTMLInputElement
    await waitFor(() => expect(document.activeElement).toBe(qty))
    await fireEvent.input(qty, { target: { value: '2' } })
    await fireEvent.input(within(form).getByLabelText('Cost'), { target: { value: '90' } })
    await fireEvent.submit(form)
    await waitFor(() => expect(api.callsOf('addLot')).toHaveLength(1))
    const positions = await screen.findByTestId('positions')
    const pos = (field: string): string =>
      positions.querySelector(`tr[data-key="crypto:BTCUSDT"] [data-field="${field}"]`)
        ?.textContent ?? ''
    await waitFor(() => expect(pos('pnl')).toBe('20.00 USDT'))
    expect(pos('value')).toBe('200.00 USDT')
    api.pushQuotes([{ key: 'crypto:BTCUSDT', last: 110 }])
    await frame()
    clock.now += 1000
    app.now = clock.now
    await waitFor(() => expect(pos('pnl')).toBe('40.00 USDT'))
    // USDT has no FX quote to the USD base here: totalled apart and named, not 1:1.
    expect(screen.getByTestId('positions-totals').textContent).toContain(
      'not converted (no USDT rate)',
    )
  })

  it('marks values from a cached price as of its time, until a live price comes', async () => {
    const { api, app, frame, clock } = await setup({
      quotes: [
        quote('crypto:BTCUSDT', {
          last: 100,
          source: 'cache',
          ts: new Date(2025, 10, 21, 14, 3).getTime(),
        }),
      ],
      watchlists: [{ id: 'w1', name: 'Main', symbols: ['crypto:BTCUSDT'] }],
    })
    await addLotOnFirstRow('1', '90')
    const positions = await screen.findByTestId('positions')
    await waitFor(() =>
      expect(within(positions).getByTestId('as-of').textContent).toBe('as of 14:03'),
    )
    expect(screen.getByTestId('positions-totals').textContent).toContain(
      'from prices that are not live: crypto:BTCUSDT',
    )
    api.pushQuotes([{ key: 'crypto:BTCUSDT', last: 101, source: 'stream', ts: clock.now }])
    await frame()
    clock.now += 1000
    app.now = clock.now
    await waitFor(() => expect(within(positions).queryByTestId('as-of')).toBeNull())
    expect(screen.getByTestId('positions-totals').textContent).not.toContain('not live')
  })

  it('changes the base currency from the panel', async () => {
    const { api } = await setup({
      quotes: [quote('crypto:BTCUSDT', { last: 100, ts: 1 })],
      watchlists: [{ id: 'w1', name: 'Main', symbols: ['crypto:BTCUSDT'] }],
    })
    await addLotOnFirstRow('1', '90')
    const select = (await screen.findByLabelText('Base currency')) as HTMLSelectElement
    await fireEvent.change(select, { target: { value: 'USDT' } })
    await waitFor(() =>
      expect(screen.getByTestId('positions-totals').textContent).toContain(
        'Total in USDT: value 100.00 USDT',
      ),
    )
    expect(api.state.positions?.baseCurrency).toBe('USDT')
  })

  it('books a symbol in another currency when the trader says so, and totals follow', async () => {
    const { api } = await setup({
      quotes: [quote('crypto:BTCUSDT', { last: 100, ts: 1 })],
      watchlists: [{ id: 'w1', name: 'Main', symbols: ['crypto:BTCUSDT'] }],
    })
    await addLotOnFirstRow('1', '90')
    const totals = await screen.findByTestId('positions-totals')
    expect(totals.textContent).toContain('not converted (no USDT rate)')
    const select = screen.getByLabelText('Quote currency of crypto:BTCUSDT') as HTMLSelectElement
    expect(select.value).toBe('USDT')
    await fireEvent.change(select, { target: { value: 'USD' } })
    await waitFor(() => expect(totals.textContent).toContain('Total in USD: value 100.00 USD'))
    expect(totals.textContent).not.toContain('not converted')
    expect(api.state.positions?.currencies).toEqual({ 'crypto:BTCUSDT': 'USD' })
  })

  it('counts USDT at 1.00 USD only once the trader sets the peg, and names the peg in the total', async () => {
    const { api } = await setup({
      quotes: [quote('crypto:BTCUSDT', { last: 100, ts: 1 })],
      watchlists: [{ id: 'w1', name: 'Main', symbols: ['crypto:BTCUSDT'] }],
    })
    await addLotOnFirstRow('1', '90')
    const totals = await screen.findByTestId('positions-totals')
    expect(totals.textContent).toContain('not converted (no USDT rate)')
    await fireEvent.click(screen.getByLabelText('Count USDT and USDC at 1.00 USD'))
    await waitFor(() => expect(totals.textContent).toContain('Total in USD: value 100.00 USD'))
    expect(screen.getByTestId('positions-peg').textContent).toBe('· USDT at 1.00 USD (peg you set)')
    expect(totals.textContent).not.toContain('not converted')
    expect(api.state.positions?.pegStablecoins).toBe(true)
  })

  it('refuses a lot with a cost below zero and stores nothing', async () => {
    const { api } = await setup({
      quotes: [quote('crypto:BTCUSDT', { last: 100, ts: 1 })],
      watchlists: [{ id: 'w1', name: 'Main', symbols: ['crypto:BTCUSDT'] }],
    })
    await fireEvent.keyDown(window, { key: 'ArrowDown' })
    await fireEvent.keyDown(window, { key: 'l' })
    const form = await screen.findByTestId('lot-form')
    await fireEvent.input(within(form).getByLabelText('Quantity'), { target: { value: '1' } })
    await fireEvent.input(within(form).getByLabelText('Cost'), { target: { value: '-5' } })
    await fireEvent.submit(form)
    expect((await within(form).findByRole('alert')).textContent).toMatch(/cost cannot be below 0/)
    expect(api.state.positions?.lots ?? []).toEqual([])
  })
})
