/** The main window's market sessions on rows and the positions panel. */
import { fireEvent, screen, waitFor, within } from '@testing-library/svelte'
import { tick } from 'svelte'
import { describe, expect, it } from 'vitest'
import { quote } from './testing/fake-api'
import { row } from './testing/grid-rows'
import { renderApp, type Rendered } from './testing/render-app'
import type { Snapshot } from '../../shared/bridge'

async function setup(snapshot: Partial<Snapshot> = {}, reducedMotion = false): Promise<Rendered> {
  return renderApp(snapshot, { reducedMotion })
}

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
    // Short enough for the column; the tooltip has it whole, zone and all.
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

/** One BTCUSDT lot in a USD book with no USDT rate: the totals say it is not converted. */
async function btcLotInUsdt(): Promise<Rendered & { totals: HTMLElement }> {
  const shown = await setup({
    quotes: [quote('crypto:BTCUSDT', { last: 100, ts: 1 })],
    watchlists: [{ id: 'w1', name: 'Main', symbols: ['crypto:BTCUSDT'] }],
  })
  await addLotOnFirstRow('1', '90')
  const totals = await screen.findByTestId('positions-totals')
  expect(totals.textContent).toContain('not converted (no USDT rate)')
  return { ...shown, totals }
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
    const { api, totals } = await btcLotInUsdt()
    const select = screen.getByLabelText('Quote currency of crypto:BTCUSDT') as HTMLSelectElement
    expect(select.value).toBe('USDT')
    await fireEvent.change(select, { target: { value: 'USD' } })
    await waitFor(() => expect(totals.textContent).toContain('Total in USD: value 100.00 USD'))
    expect(totals.textContent).not.toContain('not converted')
    expect(api.state.positions?.currencies).toEqual({ 'crypto:BTCUSDT': 'USD' })
  })

  it('counts USDT at 1.00 USD only once the trader sets the peg, and names the peg in the total', async () => {
    const { api, totals } = await btcLotInUsdt()
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
