import { afterEach, describe, expect, it } from 'vitest'
import { FakeClock } from '../../util/clock'
import { startSimulator, type SimServer } from '../index'
import type { MarketHours } from './market-hours'
import type { TickerQuote } from './price-walk'
import { getJson, mustOpen, type FrameQueue } from '../testing/spec-client'

// A Shanghai-like day in UTC: trades 01:30-03:30 and 05:00-07:00; crypto trades around the clock.
const OPEN_MS = (1 * 60 + 30) * 60_000
const LUNCH_MS = (3 * 60 + 30) * 60_000
const AFTER_LUNCH_MS = 5 * 60 * 60_000
const CLOSE_MS = 7 * 60 * 60_000
const DAY = 86_400_000
const hours: MarketHours = (market, _symbol, at) => {
  if (market === 'crypto') return { trading: true, until: null }
  const day = Math.floor(at / DAY) * DAY
  const t = at - day
  if (t < OPEN_MS) return { trading: false, until: day + OPEN_MS }
  if (t < LUNCH_MS) return { trading: true, until: day + LUNCH_MS }
  if (t < AFTER_LUNCH_MS) return { trading: false, until: day + AFTER_LUNCH_MS }
  if (t < CLOSE_MS) return { trading: true, until: day + CLOSE_MS }
  return { trading: false, until: day + DAY + OPEN_MS }
}

// Tuesday 2026-01-06 at 22:00 UTC: the night, three and a half hours before the next open.
const NIGHT = Date.UTC(2026, 0, 6, 22, 0)
const NEXT_OPEN = Date.UTC(2026, 0, 7, 1, 30)
const CN = '/api/v1/market/quote?symbols=600519'

let sim: SimServer | null = null
afterEach(async () => {
  await sim?.close()
  sim = null
})

async function moutai(s: SimServer): Promise<TickerQuote> {
  const reply = await getJson(s.url, CN, s.keys.pro)
  expect(reply.status).toBe(200)
  return (reply.body as { data: TickerQuote[] }).data[0] as TickerQuote
}

/** The pushes of one kind seen so far, whatever the dialect's framing (one per frame or batched). */
function pushes(q: FrameQueue, kind: 'tick' | 'candle', symbol: string): Record<string, unknown>[] {
  const batch = kind === 'tick' ? 'ticker' : 'kline'
  const out: Record<string, unknown>[] = []
  for (const text of q.raw) {
    const f = JSON.parse(text) as Record<string, unknown>
    const items = f.event === batch && Array.isArray(f.data) ? f.data : f.type === kind ? [f] : []
    for (const t of items as Record<string, unknown>[]) if (t.symbol === symbol) out.push(t)
  }
  return out
}

function ticks(q: FrameQueue, symbol: string): { last: number }[] {
  return pushes(q, 'tick', symbol).map((t) => ({ last: Number(t.last) }))
}

async function settle(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 50))
}

describe('the simulator keeps market hours', () => {
  it('a closed market neither ticks nor moves its REST quote for a full minute, while crypto does', async () => {
    const clock = new FakeClock(NIGHT)
    sim = await startSimulator({ clock, seed: 3, tickIntervalMs: 250, hours })
    const q = await mustOpen(sim.streamUrl, sim.keys.pro)
    q.send({ action: 'subscribe', market: 'cn', symbols: ['600519'] })
    q.send({ action: 'subscribe', market: 'crypto', symbols: ['BTCUSDT'] })
    await q.next((f) => f.event === 'subscribed')
    await q.next((f) => f.event === 'subscribed')
    await settle()
    const first = await moutai(sim)
    for (let s = 0; s < 60; s++) {
      clock.advance(1000)
      await moutai(sim)
    }
    await settle()
    const after = await moutai(sim)
    expect(after.last).toBe(first.last)
    expect(after.volume).toBe(first.volume)
    // The subscribe's snapshot only: no pushes in a minute of 250 ms beats.
    expect(ticks(q, '600519').length).toBe(1)
    expect(new Set(ticks(q, 'BTCUSDT').map((t) => t.last)).size).toBeGreaterThan(20)
    q.ws.close()
  })

  it('opens on time with a gap from the last close, the close becoming the previous close', async () => {
    const clock = new FakeClock(NIGHT)
    sim = await startSimulator({ clock, seed: 3, tickIntervalMs: 250, candleEveryMs: 500, hours })
    const close = await moutai(sim)
    // The socket opens just before the open (a fake hour of heartbeats would end it unanswered).
    clock.advance(NEXT_OPEN - NIGHT - 1000)
    expect((await moutai(sim)).last).toBe(close.last)
    const q = await mustOpen(sim.streamUrl, sim.keys.pro)
    q.send({ action: 'subscribe', market: 'cn', symbols: ['600519'] })
    await q.next((f) => f.event === 'subscribed')
    clock.advance(750)
    await settle()
    expect(ticks(q, '600519').length).toBe(1)
    // A shut market sends no live bar either.
    expect(pushes(q, 'candle', '600519')).toEqual([])
    clock.advance(250)
    await settle()
    const pushed = ticks(q, '600519')
    expect(pushed.length).toBe(2)
    expect((pushed[0] as { last: number }).last).toBe(close.last)
    const opened = (pushed[1] as { last: number }).last
    // A gap is 5 to 25 steps of the walk (stepVol 0.0004 for A-shares); one step is at most 1.
    expect(Math.abs(opened - close.last) / close.last).toBeGreaterThan(4 * 0.0004)
    const day = await moutai(sim)
    expect(day.prevClose).toBe(close.last)
    expect(day.open).toBe(opened)
    expect(day.change).not.toBe(0)
    // The first minute's bar opens at the gap, not at yesterday's close.
    clock.advance(500)
    await settle()
    const bar = pushes(q, 'candle', '600519')[0]
    expect(Number(bar?.open)).toBe(opened)
    q.ws.close()
  })

  it('after lunch, trades on from a gap, and the first bar opens there, not at the morning close', async () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 7, 3, 29))
    sim = await startSimulator({ clock, seed: 3, tickIntervalMs: 250, candleEveryMs: 500, hours })
    await moutai(sim)
    clock.advance(30_000)
    const morning = await moutai(sim)
    clock.advance(Date.UTC(2026, 0, 7, 5, 0) - 1000 - clock.now())
    const q = await mustOpen(sim.streamUrl, sim.keys.pro)
    q.send({ action: 'subscribe', market: 'cn', symbols: ['600519'] })
    await q.next((f) => f.event === 'subscribed')
    clock.advance(1500)
    await settle()
    const afternoon = ticks(q, '600519')[1]?.last as number
    expect(Math.abs(afternoon - morning.last) / morning.last).toBeGreaterThan(4 * 0.0004)
    const bar = pushes(q, 'candle', '600519')[0]
    expect(Number(bar?.open)).toBe(afternoon)
    // The same trading day: lunch does not roll the previous close.
    expect((await moutai(sim)).prevClose).toBe(morning.prevClose)
    q.ws.close()
  })
})
