import { describe, expect, it } from 'vitest'
import { FakeClock } from '../clock'
import type { Market } from '../../shared/markets/market'
import type { QuoteUpdate } from '../quotes/quote-fields'
import { QuoteStore } from '../quotes/quote-store'
import { STALE_AFTER_MS, StaleSweep } from './stale-sweep'

/** A polled price with no service time, as the poller hands it to the store. */
const polled = (market: Market, symbol: string, last: number): QuoteUpdate => ({
  market,
  symbol,
  fields: { last },
  ts: null,
  source: 'poll',
})

describe('StaleSweep', () => {
  it('marks a quote nobody refreshed for 90 s as stale and leaves fresh ones alone', () => {
    const clock = new FakeClock()
    const store = new QuoteStore(clock)
    let sweeps = 0
    const sweep = new StaleSweep(clock, store, () => sweeps++)
    store.apply(polled('crypto', 'BTCUSDT', 1))
    store.apply(polled('fx', 'EURUSD', 1.08))
    sweep.start()
    for (let t = 0; t < STALE_AFTER_MS; t += 10_000) {
      clock.advance(10_000)
      store.apply(polled('fx', 'EURUSD', 1.08))
    }
    clock.advance(10_000)
    expect(store.get('crypto:BTCUSDT')?.stale).toBe(true)
    expect(store.get('fx:EURUSD')?.stale).toBe(false)
    expect(sweeps).toBeGreaterThan(15)
    sweep.stop()
    expect(clock.pendingTimers()).toBe(0)
  })

  it('leaves a closed market fresh for 5 minutes plus 90 s, then marks it stale', () => {
    // Tuesday 10 March 2026 16:00 UTC: Shanghai is closed, FX trades.
    const clock = new FakeClock(Date.UTC(2026, 2, 10, 16, 0))
    const store = new QuoteStore(clock)
    const sweep = new StaleSweep(clock, store, () => undefined)
    for (const [market, symbol] of [
      ['cn', '600519'],
      ['fx', 'EURUSD'],
    ] as const)
      store.apply({ market, symbol, fields: { last: 1 }, ts: null, source: 'poll' })
    sweep.start()
    clock.advance(STALE_AFTER_MS + 10_000)
    expect(store.get('fx:EURUSD')?.stale).toBe(true)
    expect(store.get('cn:600519')?.stale).toBe(false)
    clock.advance(5 * 60_000)
    expect(store.get('cn:600519')?.stale).toBe(true)
    sweep.stop()
  })
})
