import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/svelte'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { TickdeskApi } from '../../../shared/bridge'
import type { Bar, Interval } from '../../../shared/quote'
import { AppState } from '../state/app-state.svelte'
import { baseSnapshot, FakeTickdeskApi } from '../testing/fake-api'
import DetailView from './DetailView.svelte'

// The canvas chart needs a real browser; this test is about which interval the view opens at.
vi.mock('./CandleChart.svelte', () => ({ default: () => undefined }))

afterEach(cleanup)

const bars = (n: number): Bar[] =>
  Array.from({ length: n }, (_, i) => ({
    openTime: i * 60_000,
    closeTime: i * 60_000 + 59_999,
    open: 1,
    high: 1,
    low: 1,
    close: 1,
    volume: 0,
  }))

/** The fake host, with `counts` bars at each interval (what the app built, for crypto). */
async function opened(
  key: string,
  counts: Partial<Record<Interval, number>>,
): Promise<{ pressed: () => string | null; asked: Interval[] }> {
  const fake = new FakeTickdeskApi(baseSnapshot())
  const asked: Interval[] = []
  const api = {
    subscribe: (l: never) => fake.subscribe(l),
    invoke: (name: string, params: { interval: Interval; limit: number }) => {
      if (name !== 'getCandles') return fake.invoke(name as never, params as never)
      asked.push(params.interval)
      // Answered a little later, as over the bridge: a click can come while the view counts.
      const answer = bars(Math.min(params.limit, counts[params.interval] ?? 0))
      return new Promise((resolve) => setTimeout(() => resolve(answer), 5))
    },
  } as unknown as TickdeskApi
  const app = new AppState(api)
  await app.load()
  render(DetailView, { props: { app, key, onclose: () => undefined } })
  const group = screen.getByRole('group', { name: 'Interval' })
  const pressed = (): string | null =>
    group.querySelector('[aria-pressed="true"]')?.textContent ?? null
  return { pressed, asked }
}

describe('DetailView: a chart of bars built from live prices', () => {
  it('opens at 1m when its 1h chart would be a single bar', async () => {
    const view = await opened('crypto:ETHUSDT', { '1h': 1, '15m': 3, '5m': 9, '1m': 45 })
    await waitFor(() => expect(view.pressed()).toBe('1m'))
  })

  it('stays at 1h where there are enough bars, and for a market with a candle endpoint', async () => {
    const built = await opened('crypto:BTCUSDT', { '1h': 40, '1m': 1000 })
    await waitFor(() => expect(built.asked).toContain('1h'))
    await new Promise((r) => setTimeout(r, 60))
    expect(built.pressed()).toBe('1h')
    cleanup()
    const served = await opened('futures:ES1!', { '1h': 1, '1m': 300 })
    await new Promise((r) => setTimeout(r, 60))
    expect(served.pressed()).toBe('1h')
    expect(served.asked.filter((iv) => iv !== '1h')).toEqual([])
  })

  it('leaves an interval the trader picks while it counts alone', async () => {
    const view = await opened('crypto:ETHUSDT', { '1h': 1, '4h': 1, '1m': 45 })
    await fireEvent.click(screen.getByRole('button', { name: '4h' }))
    await new Promise((r) => setTimeout(r, 60))
    expect(view.asked.slice(0, 2)).toEqual(['1h', '1h']) // the chart's bars, then the count
    expect(view.pressed()).toBe('4h')
  })
})
