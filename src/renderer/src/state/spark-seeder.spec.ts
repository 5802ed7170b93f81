import { describe, expect, it } from 'vitest'
import type { Bar } from '../../../shared/quote'
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
})
