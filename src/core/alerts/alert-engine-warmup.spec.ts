import { describe, expect, it } from 'vitest'
import { FakeClock } from '../clock'
import { alertRule } from '../testing/alert-rule'
import { AlertEngine } from './alert-engine'
import { CandleBuilder } from '../bars/candle-builder'
import type { AlertCondition, AlertRule, FiredAlert } from '../../shared/alerts/alert'
import { blankQuote } from '../../shared/quote'
import { closedBars } from '../testing/bars'

/**
 * A moving-average rule whose bars are not there yet says so ("waiting for bars"), and a rule
 * whose level moves (a chart line dragged) is armed afresh.
 */

const MIN = 60_000
const EMA_20_15M: AlertCondition = {
  kind: 'maCross',
  ma: 'ema',
  period: 20,
  interval: '15m',
  direction: 'any',
}

function setup(rule: AlertRule): {
  clock: FakeClock
  candles: CandleBuilder
  engine: AlertEngine
  feed: (price: number) => FiredAlert[]
} {
  const clock = new FakeClock(Date.UTC(2026, 0, 5, 10, 1))
  const candles = new CandleBuilder()
  const engine = new AlertEngine({ clock, newId: () => `f${clock.now()}` })
  engine.setBarSource((key, interval, limit) => candles.bars(key, interval, limit))
  engine.setRules([rule])
  return {
    clock,
    candles,
    engine,
    feed: (price) => {
      candles.add(rule.key, clock.now(), price)
      return engine.evaluate({
        ...blankQuote('crypto', 'BTCUSDT', clock.now(), 'stream'),
        last: price,
      })
    },
  }
}

describe('a moving-average rule waiting for its bars', () => {
  it('says "7 of 20" with 6 closed bars, cannot fire, and says when the backfill filled them', () => {
    const { clock, candles, engine, feed } = setup(alertRule(EMA_20_15M))
    candles.merge('crypto:BTCUSDT', closedBars(6, 100, clock.now()), '15m')
    expect(feed(90)).toEqual([])
    expect(engine.takeWarmupMoved()).toBe(true) // the first look: the hosts show it
    expect(engine.states()[0]).toMatchObject({
      status: 'armed',
      waitingBars: { have: 7, need: 20 },
    })
    clock.advance(MIN)
    expect(feed(110)).toEqual([]) // across the 100s, but there is no average to cross yet
    expect(engine.takeWarmupMoved()).toBe(false)

    // The history arrives (a backfill that had no budget at start gets it now).
    candles.merge('crypto:BTCUSDT', closedBars(40, 100, clock.now()), '15m')
    clock.advance(5_000)
    expect(feed(90)).toEqual([])
    expect(engine.takeWarmupMoved()).toBe(true)
    expect(engine.states()[0]).toMatchObject({ status: 'armed', waitingBars: null })
    clock.advance(MIN)
    expect(feed(110)).toHaveLength(1)
  })

  it('says "0 of 20" where no host gave it bars, and nothing for rules without an average', () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 5, 10, 1))
    const engine = new AlertEngine({ clock })
    engine.setRules([
      alertRule(EMA_20_15M, { id: 'ma' }),
      alertRule({ kind: 'above', price: 1 }, { id: 'level' }),
    ])
    const [ma, level] = engine.states()
    expect(ma?.waitingBars).toEqual({ have: 0, need: 20 })
    expect(level?.waitingBars).toBeUndefined()
  })
})

describe('a level moved after the rule fired', () => {
  it('arms a triggered once-rule afresh, and it fires at the new level', () => {
    const rule = alertRule({ kind: 'above', price: 100 }, { id: 'r1' })
    const { clock, engine, feed } = setup(rule)
    expect(feed(101)).toHaveLength(1)
    clock.advance(1_000)
    expect(feed(99)).toEqual([])
    expect(feed(102)).toEqual([]) // once: quiet for good at this level
    expect(engine.states()[0]?.status).toBe('triggered')

    engine.setRules([{ ...rule, condition: { kind: 'above', price: 105 } }], engine.states())
    expect(engine.states()[0]).toMatchObject({ status: 'armed', lastFiredAt: null, lastPrice: 102 })
    clock.advance(1_000)
    expect(feed(104)).toEqual([])
    const [fired] = feed(106)
    expect(fired?.message).toMatch(/above 105/)
    expect(engine.states()[0]?.status).toBe('triggered')
  })

  it('keeps a triggered rule triggered when the rules change around it', () => {
    const rule = alertRule({ kind: 'above', price: 100 }, { id: 'r1' })
    const { engine, feed } = setup(rule)
    expect(feed(101)).toHaveLength(1)
    const other = alertRule({ kind: 'below', price: 1 }, { id: 'r2' })
    engine.setRules([rule, other], engine.states())
    expect(engine.states().map((s) => s.status)).toEqual(['triggered', 'armed'])
  })

  it('sees a cross of the moved level from the last price before the move', () => {
    const rule = alertRule({ kind: 'crosses', price: 100 }, { id: 'r1' })
    const { clock, engine, feed } = setup(rule)
    expect(feed(99)).toEqual([])
    expect(feed(101)).toHaveLength(1)
    engine.setRules([{ ...rule, condition: { kind: 'crosses', price: 103 } }], engine.states())
    clock.advance(1_000)
    expect(feed(104)).toHaveLength(1) // 101 -> 104 crossed 103
  })
})
