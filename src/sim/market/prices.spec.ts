import { describe, expect, it } from 'vitest'
import { INSTRUMENTS, decimalsOf } from './instruments'
import { historicalBars } from './kline-bars'
import { PriceBook } from './price-walk'
import { startSimulator } from '../index'
import { getJson } from '../testing/spec-client'

const NOW = Date.UTC(2026, 0, 5, 14, 30, 12)

describe('price walks', () => {
  it('gives the same first quotes for the same seed and different ones for another seed', async () => {
    const [a, b, c] = await Promise.all([
      startSimulator({ seed: 3 }),
      startSimulator({ seed: 3 }),
      startSimulator({ seed: 4 }),
    ])
    const path = '/api/v1/market/crypto/quote?symbols=BTCUSDT,ETHUSDT,DOGEUSDT'
    const strip = (body: unknown): unknown =>
      (body as { data: Record<string, unknown>[] }).data.map(
        ({ openTime: _o, closeTime: _c, ...rest }) => rest,
      )
    const seq = async (s: typeof a): Promise<unknown[]> => {
      const out: unknown[] = []
      for (let i = 0; i < 5; i++) out.push(strip((await getJson(s.url, path, s.keys.pro)).body))
      return out
    }
    const [qa, qb, qc] = [await seq(a), await seq(b), await seq(c)]
    expect(qa).toEqual(qb)
    expect(qa).not.toEqual(qc)
    expect(qa[0]).not.toEqual(qa[1])
    await Promise.all([a.close(), b.close(), c.close()])
  })

  it('keeps every instrument on its tick grid with bid < last < ask and a consistent day range', () => {
    const book = new PriceBook(11)
    for (const inst of INSTRUMENTS) {
      let volume = 0
      for (let i = 0; i < 50; i++) {
        const q = book.step(inst, NOW + i * 250)
        expect(q.bid).toBeLessThan(q.last)
        expect(q.ask).toBeGreaterThan(q.last)
        expect(q.high).toBeGreaterThanOrEqual(Math.max(q.last, q.open))
        expect(q.low).toBeLessThanOrEqual(Math.min(q.last, q.open))
        expect(q.volume).toBeGreaterThan(volume)
        volume = q.volume
        const steps = q.last / inst.tick
        expect(Math.abs(steps - Math.round(steps))).toBeLessThan(1e-6)
        expect(q.last.toString().split('.')[1]?.length ?? 0).toBeLessThanOrEqual(
          decimalsOf(inst.tick),
        )
        expect(q.change).toBeCloseTo(q.last - q.prevClose, 6)
      }
      expect(book.peek(inst, NOW).last / inst.level).toBeGreaterThan(0.9)
      expect(book.peek(inst, NOW).last / inst.level).toBeLessThan(1.1)
    }
  })
})

describe('historical bars', () => {
  const es = INSTRUMENTS.find((i) => i.symbol === 'ES1!')!

  it('are the same for the same seed and newest bar, and differ for another seed', () => {
    expect(historicalBars(es, '5m', 50, NOW, 1)).toEqual(
      historicalBars(es, '5m', 50, NOW + 1000, 1),
    )
    expect(historicalBars(es, '5m', 50, NOW, 1)).not.toEqual(historicalBars(es, '5m', 50, NOW, 2))
  })

  it('end with the bar containing now and run continuously backward', () => {
    for (const interval of ['1m', '1h', '1d', '1w', '1mo'] as const) {
      const bars = historicalBars(es, interval, 30, NOW, 1)
      const last = bars.at(-1)!
      expect(last.openTime).toBeLessThanOrEqual(NOW)
      expect(last.closeTime).toBeGreaterThanOrEqual(NOW)
      for (let i = 1; i < bars.length; i++) {
        expect(bars[i]!.openTime).toBe(bars[i - 1]!.closeTime + 1)
        expect(bars[i]!.open).toBeCloseTo(bars[i - 1]!.close, 6)
      }
    }
    const weekly = historicalBars(es, '1w', 1, NOW, 1)[0]!
    expect(new Date(weekly.openTime).getUTCDay()).toBe(1)
    expect(new Date(historicalBars(es, '1mo', 1, NOW, 1)[0]!.openTime).toISOString()).toBe(
      '2026-01-01T00:00:00.000Z',
    )
  })
})
