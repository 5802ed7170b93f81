import { describe, expect, it } from 'vitest'
import { bucketStart } from '../../shared/intervals'
import { CandleBuilder } from './candle-builder'
import type { Bar } from '../../shared/quote'

const MIN = 60_000
const T0 = Date.UTC(2026, 0, 5, 0, 0) // a Monday, 00:00 UTC
const K = 'fx:EURUSD'

function bar(openTime: number, close: number, span = MIN): Bar {
  return {
    openTime,
    closeTime: openTime + span - 1,
    open: close,
    high: close,
    low: close,
    close,
    volume: 1,
  }
}

describe('CandleBuilder', () => {
  it('builds a 1m bar from ticks: open first, close last, high/low extremes, summed volume', () => {
    const cb = new CandleBuilder()
    cb.add(K, T0 + 1_000, 1.1, 2)
    cb.add(K, T0 + 20_000, 1.3, 1)
    cb.add(K, T0 + 40_000, 1.0)
    cb.add(K, T0 + 59_999, 1.2, 3)
    expect(cb.bars(K, '1m', 10)).toEqual([
      {
        openTime: T0,
        closeTime: T0 + MIN - 1,
        open: 1.1,
        high: 1.3,
        low: 1.0,
        close: 1.2,
        volume: 6,
      },
    ])
  })

  it('a ring kept from minuteRing is the symbol own until remove moves the epoch', () => {
    const c = new CandleBuilder()
    const ring = c.minuteRing(K)
    const epoch = c.epoch
    c.addTo(ring, T0, 1.1, 2)
    c.add(K, T0 + 1000, 1.3, 1)
    expect(c.minuteRing(K)).toBe(ring)
    expect(c.bars(K, '1m', 5)).toMatchObject([{ open: 1.1, high: 1.3, close: 1.3, volume: 3 }])
    c.remove('fx:NEVER') // nothing held: nothing to invalidate
    expect(c.epoch).toBe(epoch)
    c.remove(K)
    expect(c.epoch).not.toBe(epoch)
    expect(c.minuteRing(K)).not.toBe(ring)
    expect(c.bars(K, '1m', 5)).toEqual([])
  })

  it('starts a new bar each minute and aggregates to 5m on read', () => {
    const cb = new CandleBuilder()
    for (let m = 0; m < 10; m++) cb.add(K, T0 + m * MIN, 100 + m, 1)
    const bars = cb.bars(K, '5m', 10)
    expect(bars).toEqual([
      {
        openTime: T0,
        closeTime: T0 + 5 * MIN - 1,
        open: 100,
        high: 104,
        low: 100,
        close: 104,
        volume: 5,
      },
      {
        openTime: T0 + 5 * MIN,
        closeTime: T0 + 10 * MIN - 1,
        open: 105,
        high: 109,
        low: 105,
        close: 109,
        volume: 5,
      },
    ])
  })

  it('aligns 1h, 4h, 1d, 1w and 1mo buckets to UTC boundaries', () => {
    const t = Date.UTC(2026, 1, 18, 13, 47, 12) // Wednesday 18 Feb 2026
    expect(bucketStart('1h', t)).toBe(Date.UTC(2026, 1, 18, 13))
    expect(bucketStart('4h', t)).toBe(Date.UTC(2026, 1, 18, 12))
    expect(bucketStart('1d', t)).toBe(Date.UTC(2026, 1, 18))
    expect(bucketStart('1w', t)).toBe(Date.UTC(2026, 1, 16)) // Monday
    expect(bucketStart('1mo', t)).toBe(Date.UTC(2026, 1, 1))
  })

  it('returns only the newest `limit` bars', () => {
    const cb = new CandleBuilder()
    for (let m = 0; m < 30; m++) cb.add(K, T0 + m * MIN, m)
    const bars = cb.bars(K, '1m', 3)
    expect(bars.map((b) => b.close)).toEqual([27, 28, 29])
  })

  it('keeps at most `capacity` 1m bars per symbol, dropping the oldest', () => {
    const cb = new CandleBuilder({ capacity: 100 })
    for (let m = 0; m < 250; m++) cb.add(K, T0 + m * MIN, m)
    const bars = cb.bars(K, '1m', 1000)
    expect(bars).toHaveLength(100)
    expect(bars[0]?.close).toBe(150)
    expect(bars.at(-1)?.close).toBe(249)
  })

  it('grows a ring as bars arrive, keeping order and late ticks across the growth', () => {
    const cb = new CandleBuilder({ capacity: 1000 })
    for (let m = 0; m < 130; m++) cb.add(K, T0 + m * MIN, m)
    cb.add(K, T0 + 3 * MIN + 5_000, 999)
    const bars = cb.bars(K, '1m', 1000)
    expect(bars.map((b) => b.open)).toEqual(Array.from({ length: 130 }, (_, m) => m))
    expect(bars[3]).toMatchObject({ high: 999, close: 3 })
  })

  it('holds little for a symbol with few bars: 5000 symbols with one tick each under 40 MB', () => {
    const before = process.memoryUsage().arrayBuffers
    const cb = new CandleBuilder({ capacity: 1000 })
    for (let i = 0; i < 5000; i++) cb.add(`crypto:Z${i}`, T0, 1)
    // Full-capacity rings from the first tick held 48 KB a symbol: 234 MB.
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(40 * 1048576)
    expect(cb.bars('crypto:Z4999', '1m', 10)).toHaveLength(1)
  })

  it('applies a late tick to the bar it belongs to without moving its close', () => {
    const cb = new CandleBuilder()
    cb.add(K, T0, 10)
    cb.add(K, T0 + MIN, 11)
    cb.add(K, T0 + 30_000, 15, 2)
    const [first, second] = cb.bars(K, '1m', 10)
    expect(first).toMatchObject({ high: 15, close: 10, volume: 2 })
    expect(second).toMatchObject({ close: 11 })
  })

  it('merges kline bars, which replace local bars with the same open time', () => {
    const cb = new CandleBuilder()
    cb.add(K, T0 + MIN, 50)
    cb.merge(K, [bar(T0, 40), bar(T0 + MIN, 41)])
    cb.add(K, T0 + 2 * MIN, 42)
    expect(cb.bars(K, '1m', 10).map((b) => b.close)).toEqual([40, 41, 42])
  })

  it('keeps merged 1h bars at their interval and extends the newest with local ticks', () => {
    const cb = new CandleBuilder()
    const H = 60 * MIN
    cb.merge(K, [bar(T0, 10, H), bar(T0 + H, 11, H)])
    cb.add(K, T0 + H + 30 * MIN, 12.5)
    cb.add(K, T0 + 2 * H + MIN, 13)
    const bars = cb.bars(K, '1h', 10)
    expect(bars.map((b) => [b.openTime - T0, b.close, b.high])).toEqual([
      [0, 10, 10],
      [H, 12.5, 12.5],
      [2 * H, 13, 13],
    ])
    expect(cb.bars(K, '1m', 10)).toHaveLength(2) // 1h bars did not leak into the 1m series
  })

  it('round-trips export() and import() for the disk cache', () => {
    const cb = new CandleBuilder()
    for (let m = 0; m < 5; m++) cb.add(K, T0 + m * MIN, m, 1)
    cb.merge('crypto:BTCUSDT', [bar(T0, 1, 3_600_000)])
    const copy = new CandleBuilder()
    copy.import(JSON.parse(JSON.stringify(cb.export())))
    expect(copy.bars(K, '5m', 10)).toEqual(cb.bars(K, '5m', 10))
    expect(copy.bars('crypto:BTCUSDT', '1h', 10)).toEqual(cb.bars('crypto:BTCUSDT', '1h', 10))
  })

  it('returns nothing for an unknown symbol and ignores non-finite prices', () => {
    const cb = new CandleBuilder()
    cb.add(K, T0, Number.NaN)
    expect(cb.bars(K, '1m', 10)).toEqual([])
    expect(cb.bars('hk:00700', '1d', 10)).toEqual([])
  })
})
