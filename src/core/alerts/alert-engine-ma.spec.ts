import { describe, expect, it } from 'vitest'
import { FakeClock } from '../clock'
import { alertRule } from '../testing/alert-rule'
import { AlertEngine } from './alert-engine'
import { movingAverage } from './alert-ma'
import { BarBackfill } from '../bars/bar-backfill'
import { CandleBuilder } from '../bars/candle-builder'
import type { AlertCondition, AlertRule, FiredAlert } from '../../shared/alerts/alert'
import { blankQuote } from '../../shared/quote'
import { barsAt } from '../testing/bars'

const MIN = 60_000

const rule = (condition: AlertCondition, over: Partial<AlertRule> = {}): AlertRule =>
  alertRule(condition, { key: 'futures:ES1!', ...over })

describe('movingAverage', () => {
  it('SMA and EMA with the live price as the newest close', () => {
    expect(movingAverage('sma', 3, [1, 2, 3, 4], 8)).toBe((3 + 4 + 8) / 3)
    expect(movingAverage('sma', 3, [1], 2)).toBeNull()
    // EMA(2): seed (1+2)/2 = 1.5, k = 2/3: 1.5 + 2/3 (3 - 1.5) = 2.5, then 2.5 + 2/3 (6 - 2.5)
    expect(movingAverage('ema', 2, [1, 2, 3], 6)).toBeCloseTo(2.5 + (2 / 3) * 3.5, 10)
  })
})

describe('AlertEngine: price crosses a moving average', () => {
  function setup(condition: AlertCondition): {
    clock: FakeClock
    candles: CandleBuilder
    feed: (price: number) => FiredAlert[]
  } {
    const clock = new FakeClock(Date.UTC(2026, 0, 5, 10, 0))
    const candles = new CandleBuilder()
    const engine = new AlertEngine({ clock, newId: () => 'a' })
    engine.setBarSource((key, interval, limit) => candles.bars(key, interval, limit))
    engine.setRules([rule(condition)])
    return {
      clock,
      candles,
      feed: (price) => {
        // The engine adds each tick to its candles before the alerts see it.
        candles.add('futures:ES1!', clock.now(), price)
        return engine.evaluate({
          ...blankQuote('futures', 'ES1!', clock.now(), 'stream'),
          last: price,
        })
      },
    }
  }

  it('fires once when the price crosses above the 3 SMA on 15m bars, naming the average', () => {
    const { clock, candles, feed } = setup({
      kind: 'maCross',
      ma: 'sma',
      period: 3,
      interval: '15m',
      direction: 'up',
    })
    const now = clock.now()
    candles.merge('futures:ES1!', barsAt([100, 100], now - 30 * MIN, 15 * MIN), '15m')
    expect(feed(95)).toEqual([]) // below the average: (100 + 100 + 95) / 3
    clock.advance(MIN)
    const [fired] = feed(101) // (100 + 100 + 101) / 3 = 100.33: crossed
    expect(fired?.message).toBe('ES1! crossed above the 3 SMA (15m) at 100.333 (101)')
    clock.advance(MIN)
    expect(feed(90)).toEqual([])
    expect(feed(105)).toEqual([]) // once per arming
  })

  it('does not fire before it has the bars, nor on the first price it sees', () => {
    const { clock, feed } = setup({
      kind: 'maCross',
      ma: 'ema',
      period: 20,
      interval: '15m',
      direction: 'any',
    })
    for (let i = 0; i < 10; i++) {
      expect(feed(i % 2 === 0 ? 90 : 110)).toEqual([])
      clock.advance(MIN)
    }
  })

  it('a 20 EMA on 15m fires on a fall through it once the fetched history is there', async () => {
    const { clock, candles, feed } = setup({
      kind: 'maCross',
      ma: 'ema',
      period: 20,
      interval: '15m',
      direction: 'down',
    })
    const start = clock.now() - 60 * 15 * MIN
    const fetched: string[] = []
    const backfill = new BarBackfill({
      candles,
      clock,
      budget: () => ({ usedLastMinute: 0, perMinute: 60 }),
      fetch: async (key, interval, limit) => {
        fetched.push(`${key} ${interval} ${limit}`)
        return barsAt(Array<number>(60).fill(200), start, 15 * MIN)
      },
    })
    backfill.want([{ key: 'futures:ES1!', interval: '15m', count: 60 }])
    backfill.want([{ key: 'futures:ES1!', interval: '15m', count: 60 }])
    await Promise.resolve()
    await Promise.resolve()
    expect(fetched).toEqual(['futures:ES1! 15m 61'])
    clock.advance(6_000)
    expect(feed(205)).toEqual([])
    clock.advance(MIN)
    expect(feed(190)[0]?.message).toMatch(
      /^ES1! crossed below the 20 EMA \(15m\) at 199\.0\d+ \(190\)$/,
    )
  })

  it('asks for history again later when the minute had no room, and never for crypto', async () => {
    const clock = new FakeClock()
    let used = 40
    const fetched: string[] = []
    const backfill = new BarBackfill({
      candles: new CandleBuilder(),
      clock,
      budget: () => ({ usedLastMinute: used, perMinute: 60 }),
      fetch: async (key) => {
        fetched.push(key)
        return []
      },
    })
    backfill.want([
      { key: 'crypto:BTCUSDT', interval: '1h', count: 20 },
      { key: 'futures:ES1!', interval: '1h', count: 20 },
    ])
    await Promise.resolve()
    expect(fetched).toEqual([])
    used = 0
    clock.advance(15_000)
    await Promise.resolve()
    expect(fetched).toEqual(['futures:ES1!'])
  })
})
