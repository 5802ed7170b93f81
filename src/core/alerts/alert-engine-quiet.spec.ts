import { describe, expect, it } from 'vitest'
import { FakeClock } from '../clock'
import { seededRandom } from '../random'
import { alertRule } from '../testing/alert-rule'
import { AlertEngine } from './alert-engine'
import type { AlertCondition, AlertRule } from '../../shared/alerts/alert'
import { blankQuote, type Quote } from '../../shared/quote'

/**
 * The engine's cheap tick for price-only rules (alert-engine.ts quietTick): whatever path a tick
 * takes, every price that crosses a level fires and none that does not, every tick is seen by
 * every rule of its symbol, and a symbol without rules is left alone.
 */

function quote(symbol: string, last: number, receivedAt: number): Quote {
  return { ...blankQuote('crypto', symbol, receivedAt, 'stream'), last }
}

function engineWith(rules: AlertRule[]): { clock: FakeClock; engine: AlertEngine } {
  const clock = new FakeClock()
  let n = 0
  const engine = new AlertEngine({ clock, newId: () => `a${++n}` })
  engine.setRules(rules)
  return { clock, engine }
}

/**
 * Prices from `from`, drifting by `drift` a tick with noise, on a grid of 0.25: never on a level
 * of the specs below (x.1), where a price at the level would be a case of its own.
 */
function walk(seed: number, n: number, from: number, drift: number): number[] {
  const random = seededRandom(seed)
  return Array.from({ length: n }, (_, i) => {
    const p = from + i * drift + (random() - 0.5) * 3
    return Math.round(p * 4) / 4
  })
}

const rearm = { repeat: 'rearm', hysteresisPct: 0, cooldownSec: 0 } as const

describe('AlertEngine on the common tick of a price-only rule', () => {
  it('fires a crossing on the very tick it happens, every time, over a long walk', () => {
    const level = 100.1
    const { engine } = engineWith([alertRule({ kind: 'crosses', price: level }, rearm)])
    const prices = walk(7, 5000, level, 0)
    const expected: number[] = []
    const fired: number[] = []
    prices.forEach((p, i) => {
      const prev = prices[i - 1]
      if (prev !== undefined && prev < level !== p < level) expected.push(i)
      if (engine.evaluate(quote('BTCUSDT', p, i)).length > 0) fired.push(i)
    })
    expect(expected.length).toBeGreaterThan(50)
    expect(fired).toEqual(expected)
  })

  it.each<[string, AlertCondition, (p: number) => boolean, number]>([
    ['above', { kind: 'above', price: 100.1 }, (p) => p >= 100.1, 80],
    ['below', { kind: 'below', price: 100.1 }, (p) => p <= 100.1, 120],
    [
      'channel enter',
      { kind: 'channel', low: 99.1, high: 101.1, on: 'enter' },
      (p) => p >= 99.1 && p <= 101.1,
      80,
    ],
  ])('fires %s on the first tick that meets it after a run that did not', (_, c, holds, from) => {
    const { engine } = engineWith([alertRule(c, { repeat: 'once' })])
    const prices = walk(11, 3000, from, from < 100 ? 0.01 : -0.01)
    const first = prices.findIndex(holds)
    expect(first).toBeGreaterThan(0)
    const fired = prices.map((p, i) => engine.evaluate(quote('BTCUSDT', p, i)).length)
    expect(fired.indexOf(1)).toBe(first)
    expect(fired.reduce((a, b) => a + b, 0)).toBe(1)
  })

  it('sees every tick of every symbol with rules, and leaves a symbol without rules alone', () => {
    const symbols = ['AUSDT', 'BUSDT', 'CUSDT']
    const rules = symbols.map((s, i) =>
      alertRule({ kind: 'crosses', price: 1e9 }, { ...rearm, id: `r${i}`, key: `crypto:${s}` }),
    )
    const { engine } = engineWith(rules)
    const random = seededRandom(3)
    const last = new Map<string, [number, number]>()
    let unruled = 0
    for (let i = 1; i <= 1000; i++) {
      const s = symbols[Math.floor(random() * 3)] as string
      const p = 50 + random()
      engine.evaluate(quote(s, p, i))
      last.set(s, [p, i])
      unruled += engine.evaluate(quote('NOALERTUSDT', 1e10, i)).length
    }
    expect(unruled).toBe(0)
    for (const [i, s] of symbols.entries()) {
      const state = engine.stateOf(`r${i}`)
      expect([state?.lastPrice, state?.lastSeenAt]).toEqual(last.get(s))
      expect(state?.status).toBe('armed')
    }
    expect(engine.states().map((s) => s.ruleId)).toEqual(['r0', 'r1', 'r2'])
  })

  it('keeps a fired rule quiet through its cooldown, then fires the next crossing', () => {
    const { clock, engine } = engineWith([
      alertRule({ kind: 'crosses', price: 100 }, { ...rearm, cooldownSec: 60 }),
    ])
    const feed = (p: number): number => engine.evaluate(quote('BTCUSDT', p, clock.now())).length
    expect([feed(99), feed(101)]).toEqual([0, 1])
    clock.advance(1000)
    expect([feed(102), feed(99), feed(101)]).toEqual([0, 0, 0])
    expect(engine.states()[0]?.status).toBe('cooldown')
    clock.advance(60_000)
    expect([feed(102), feed(99)]).toEqual([0, 1])
  })

  it('holds a rule whose last fire is ahead of a clock stepped back for a whole cooldown', () => {
    const { clock, engine } = engineWith([
      alertRule({ kind: 'crosses', price: 100 }, { ...rearm, cooldownSec: 60 }),
    ])
    const feed = (p: number): number => engine.evaluate(quote('BTCUSDT', p, clock.now())).length
    expect([feed(99), feed(101)]).toEqual([0, 1])
    clock.advance(120_000)
    expect(feed(102)).toBe(0)
    expect(engine.states()[0]?.status).toBe('armed')
    // The wall clock steps back an hour: the cooldown runs whole from the first tick after it.
    clock.jump(-3_600_000)
    expect(feed(103)).toBe(0)
    expect(engine.states()[0]?.status).toBe('cooldown')
    clock.advance(30_000)
    expect(feed(99)).toBe(0)
    clock.advance(35_000)
    expect(feed(101)).toBe(1)
  })

  it('judges a rule that expires, or is snoozed, by the clock on the tick itself', () => {
    const start = new FakeClock().now()
    const never = { kind: 'crosses', price: 1000 } as const
    const { clock, engine } = engineWith([
      alertRule({ kind: 'crosses', price: 100 }, { ...rearm, expiresAt: start + 60_000 }),
      alertRule(
        { kind: 'crosses', price: 100 },
        { ...rearm, id: 'r2', snoozedUntil: start + 30_000 },
      ),
      alertRule(never, { ...rearm, id: 'r3', expiresAt: start + 60_000 }),
      alertRule(never, { ...rearm, id: 'r4', snoozedUntil: start + 30_000 }),
    ])
    const feed = (p: number): string[] =>
      engine.evaluate(quote('BTCUSDT', p, clock.now())).map((a) => a.ruleId)
    const statuses = (): string[] => engine.states().map((s) => s.status)
    expect([feed(99), feed(101)]).toEqual([[], ['r1']])
    clock.advance(40_000)
    expect([feed(99), feed(101)]).toEqual([
      ['r1', 'r2'],
      ['r1', 'r2'],
    ])
    expect(statuses()).toEqual(['triggered', 'triggered', 'armed', 'armed'])
    // Back inside the snooze (the wall clock stepped back): snoozed again, on the tick.
    clock.jump(-20_000)
    feed(102)
    expect(engine.stateOf('r4')?.status).toBe('snoozed')
    clock.advance(60_000)
    expect(feed(99)).toEqual(['r2'])
    // An expired rule sees no more prices.
    expect(engine.stateOf('r3')?.lastPrice).toBe(102)
    expect(statuses()).toEqual(['expired', 'triggered', 'expired', 'armed'])
  })
})
