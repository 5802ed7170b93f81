import { describe, expect, it, vi } from 'vitest'
import type { Bar } from '../../../shared/quote'
import { SPARK_HISTORY_BATCH } from '../../../shared/bridge'
import { SPARK_RETRY_MS, SparkSeeder } from './spark-seeder'

const bar = (t: number, close: number): Bar => ({
  openTime: t,
  closeTime: t + 59_999,
  open: close,
  high: close,
  low: close,
  close,
  volume: 0,
})

describe('the sparkline seeder', () => {
  it('asks once per symbol, and asks again a minute later for one the host had nothing for', async () => {
    const asked: string[][] = []
    const history = new Map<string, Bar[]>([['crypto:BTCUSDT', [bar(0, 1), bar(60_000, 2)]]])
    const api = {
      invoke: ((_: 'getSparkHistory', p: { keys: string[] }) => {
        asked.push(p.keys)
        return Promise.resolve(p.keys.map((key) => ({ key, bars: history.get(key) ?? [] })))
      }) as never,
    }
    const timers: Array<{ fn: () => void; ms: number }> = []
    const seeded: string[] = []
    const seeder = new SparkSeeder(
      api,
      (key) => {
        seeded.push(key)
        return true
      },
      (fn, ms) => timers.push({ fn, ms }),
    )
    seeder.want(['crypto:BTCUSDT', 'futures:ES1!'])
    seeder.want(['crypto:BTCUSDT', 'futures:ES1!']) // in flight: not asked twice
    await Promise.resolve()
    await Promise.resolve()
    expect(asked).toEqual([['crypto:BTCUSDT', 'futures:ES1!']])
    expect(seeded).toEqual(['crypto:BTCUSDT'])
    expect(timers.map((t) => t.ms)).toEqual([SPARK_RETRY_MS])
    history.set('futures:ES1!', [bar(0, 5000), bar(60_000, 5001)])
    timers[0]!.fn()
    await Promise.resolve()
    await Promise.resolve()
    expect(asked.at(-1)).toEqual(['futures:ES1!'])
    expect(seeded).toEqual(['crypto:BTCUSDT', 'futures:ES1!'])
    seeder.want(['crypto:BTCUSDT', 'futures:ES1!'])
    expect(asked).toHaveLength(2)
  })

  it('asks a long list in batches, one call at a time, every symbol once', async () => {
    const asked: string[][] = []
    let inFlight = 0
    let most = 0
    const api = {
      invoke: ((_: 'getSparkHistory', p: { keys: string[] }) => {
        asked.push(p.keys)
        most = Math.max(most, ++inFlight)
        return new Promise((resolve) =>
          setTimeout(() => {
            inFlight--
            resolve(p.keys.map((key) => ({ key, bars: [bar(0, 1), bar(60_000, 2)] })))
          }, 0),
        )
      }) as never,
    }
    const keys = Array.from({ length: 5000 }, (_, i) => `crypto:ZC${String(i).padStart(5, '0')}`)
    const seeded = new Set<string>()
    const seeder = new SparkSeeder(
      api,
      (key) => seeded.add(key).has(key),
      () => undefined,
    )
    seeder.want(keys)
    seeder.want(keys)
    await vi.waitFor(() => expect(seeded.size).toBe(5000))
    expect(asked).toHaveLength(5000 / SPARK_HISTORY_BATCH)
    expect(asked.every((a) => a.length === SPARK_HISTORY_BATCH)).toBe(true)
    expect(new Set(asked.flat()).size).toBe(5000)
    expect(most).toBe(1)
  })
})
