import { describe, expect, it } from 'vitest'
import { FakeClock } from '../clock'
import { alertRule } from '../testing/alert-rule'
import { barsAt } from '../testing/bars'
import { CandleBuilder } from '../bars/candle-builder'
import { AlertEngine } from './alert-engine'
import type { AlertCondition, AlertRule, AlertRuleState } from '../../shared/alerts/alert'
import type { Line, Range } from '../../shared/drawings/drawing'
import { blankQuote } from '../../shared/quote'

const MIN = 60_000
const T0 = Date.UTC(2026, 10, 30, 14, 0)
const drawing = { id: 'd1', family: 'intraday' as const }

const lineRule = (
  line: Line,
  over: Partial<AlertRule> = {},
  direction: 'up' | 'down' | 'any' = 'any',
) => alertRule({ kind: 'lineCross', drawing, line, direction, interval: '5m' }, over)
const rangeRule = (range: Range, on: 'enter' | 'exit') =>
  alertRule({ kind: 'rangeCross', drawing, range, on })

/** A trend line from 66,000 at T0 to 67,000 an hour later: 1,000 an hour, on past 15:00. */
const TREND: Line = {
  shape: 'trend',
  a: { t: T0, price: 66_000 },
  b: { t: T0 + 60 * MIN, price: 67_000 },
}

function setup(rules: AlertRule[], states?: AlertRuleState[]) {
  const clock = new FakeClock(T0)
  const candles = new CandleBuilder()
  const engine = new AlertEngine({ clock, newId: () => `f${clock.now()}` })
  engine.setBarSource((key, interval, limit) => candles.bars(key, interval, limit))
  engine.setRules(rules, states)
  const tick = (price: number) =>
    engine.evaluate({ ...blankQuote('crypto', 'BTCUSDT', clock.now(), 'stream'), last: price })
  return { clock, candles, engine, tick }
}

describe('AlertEngine: price crosses a line the trader drew', () => {
  it('fires once, on the tick that crosses the trend line, worded with the line and the price', () => {
    const { clock, tick } = setup([lineRule(TREND)])
    clock.advance(30 * MIN) // the line is at 66,500
    expect(tick(66_400)).toEqual([])
    clock.advance(MIN) // 66,516.67
    const [fired] = tick(66_520)
    expect(fired?.message).toBe('BTCUSDT crossed your trend line (now 66,520), up through 66,516.7')
    clock.advance(MIN)
    expect(tick(66_000)).toEqual([]) // once
    expect(tick(67_000)).toEqual([])
  })

  it("judges each tick against the line's price at its time: a still price is crossed by a rising line", () => {
    const { clock, tick } = setup([lineRule(TREND)])
    clock.advance(10 * MIN) // line 66,166.67: the price is above it
    expect(tick(66_300)).toEqual([])
    clock.advance(5 * MIN) // 66,250: still above
    expect(tick(66_300)).toEqual([])
    clock.advance(5 * MIN) // 66,333.33: the line went through the price, which did not move
    const [fired] = tick(66_300)
    expect(fired?.message).toMatch(
      /^BTCUSDT crossed your trend line \(now 66,300\), down through 66,333\.3/,
    )
  })

  it('never fires before the first point of a trend line or a ray', () => {
    const ray: Line = { shape: 'ray', from: { t: T0 + 30 * MIN, price: 100 } }
    const { clock, tick } = setup([lineRule(ray, { id: 'ray' }), lineRule(TREND, { id: 'tl' })])
    clock.advance(-10 * MIN)
    expect(tick(90)).toEqual([])
    clock.advance(MIN)
    expect(tick(110)).toEqual([]) // before the ray starts: no line to cross
    clock.advance(45 * MIN)
    expect(tick(90)).toEqual([]) // the ray's first price seen: its side, not a cross
    clock.advance(MIN)
    expect(tick(101).map((f) => f.ruleId)).toEqual(['ray'])
  })

  it('crosses only the way asked', () => {
    const hline: Line = { shape: 'hline', price: 100 }
    const { tick } = setup([lineRule(hline, {}, 'down')])
    expect(tick(99)).toEqual([])
    expect(tick(101)).toEqual([]) // up: not asked
    expect(tick(99.5)[0]?.message).toBe(
      'BTCUSDT crossed your horizontal line (now 99.5), down through 100',
    )
  })
})

describe("AlertEngine: a line rule's side, kept and found, and the drawing it follows", () => {
  it('after a restart, takes its side from the last price saved with its state', () => {
    const rule = lineRule(TREND)
    const saved: AlertRuleState = {
      ruleId: rule.id,
      status: 'armed',
      lastFiredAt: null,
      lastPrice: 66_100,
      lastSeenAt: T0 + 20 * MIN, // the line was at 66,333: the price was below
      waitingBars: null,
    }
    const { clock, tick } = setup([rule], [saved])
    clock.advance(40 * MIN) // 66,666.67
    expect(tick(66_700)[0]?.message).toMatch(/crossed your trend line \(now 66,700\), up/)
  })

  it('with no price seen yet, takes its side from the last closed bar of its interval', () => {
    const { clock, candles, tick } = setup([lineRule(TREND)])
    clock.advance(31 * MIN)
    // Closed 5m bars up to 14:30, the last at 66,400 (the line at its close: 66,500).
    candles.merge('crypto:BTCUSDT', barsAt([66_300, 66_400], T0 + 20 * MIN, 5 * MIN), '5m')
    expect(tick(66_600)).toHaveLength(1)
  })

  it('tells the hosts once when it first knows its side, so they save it', () => {
    const { clock, engine, tick } = setup([lineRule(TREND)])
    engine.takeWarmupMoved()
    clock.advance(30 * MIN)
    tick(66_400)
    expect(engine.takeWarmupMoved()).toBe(true)
    clock.advance(MIN)
    tick(66_400)
    expect(engine.takeWarmupMoved()).toBe(false)
    expect(engine.states()[0]).toMatchObject({ lastPrice: 66_400, lastSeenAt: T0 + 31 * MIN })
  })

  it('re-arms once back past the hysteresis band, and reports a cross back made inside it', () => {
    const hline: Line = { shape: 'hline', price: 100 }
    const { tick } = setup([lineRule(hline, { repeat: 'rearm', hysteresisPct: 1 })])
    tick(99)
    expect(tick(100.1)).toHaveLength(1)
    expect(tick(99.9)).toEqual([]) // back under, inside the band: not armed yet
    expect(tick(98.5)[0]?.message).toMatch(/down through 100/) // left the band below: the cross back
  })

  it('follows its drawing: a moved line is armed afresh and judged from the last price seen', () => {
    const { engine, tick } = setup([lineRule({ shape: 'hline', price: 100 })])
    tick(99)
    expect(tick(101)).toHaveLength(1)
    engine.setRules([lineRule({ shape: 'hline', price: 105 })])
    expect(engine.states()[0]?.status).toBe('armed')
    expect(tick(104)).toEqual([]) // moving the line past nothing is not a cross
    expect(tick(106)[0]?.message).toMatch(/up through 105/)
  })
})

describe('AlertEngine: price enters or leaves a range the trader drew', () => {
  const range: Range = { from: T0, to: T0 + 60 * MIN, low: 100, high: 110 }

  it('fires on entering while the range lasts, worded with the range', () => {
    const { clock, tick } = setup([rangeRule(range, 'enter')])
    clock.advance(MIN)
    expect(tick(95)).toEqual([])
    expect(tick(105)[0]?.message).toBe('BTCUSDT entered your range 100–110 (now 105)')
  })

  it('says nothing outside its time: before it starts and after it ends', () => {
    const { clock, tick } = setup([rangeRule(range, 'enter')])
    clock.advance(-MIN)
    expect(tick(105)).toEqual([])
    clock.advance(62 * MIN)
    expect(tick(95)).toEqual([])
    expect(tick(105)).toEqual([])
  })

  it('fires on leaving, and a range extended to the right never ends', () => {
    const { clock, tick } = setup([rangeRule({ ...range, to: null }, 'exit')])
    clock.advance(600 * MIN)
    expect(tick(105)).toEqual([])
    expect(tick(111)[0]?.message).toBe('BTCUSDT left your range 100–110 (now 111)')
  })
})

describe('the rule schema', () => {
  it('refuses a trend line whose points are out of order and a range without height', async () => {
    const { AlertConditionSchema } = await import('../../shared/alerts/alert')
    const bad: unknown[] = [
      { kind: 'lineCross', drawing, interval: '5m', line: { ...TREND, b: TREND.a, a: TREND.b } },
      { kind: 'rangeCross', drawing, on: 'enter', range: { ...range(), low: 5, high: 5 } },
    ]
    for (const c of bad) expect(AlertConditionSchema.safeParse(c).success).toBe(false)
    const good: AlertCondition = {
      kind: 'lineCross',
      drawing,
      interval: '5m',
      line: TREND,
      direction: 'any',
    }
    expect(AlertConditionSchema.parse(good)).toEqual(good)
  })
})

function range(): Range {
  return { from: T0, to: null, low: 1, high: 2 }
}
