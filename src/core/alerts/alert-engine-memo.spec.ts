import { describe, expect, it } from 'vitest'
import { FakeClock } from '../clock'
import { alertRule } from '../testing/alert-rule'
import { AlertEngine, type RuleMemo } from './alert-engine'
import { blankQuote, type Quote } from '../../shared/quote'

/**
 * The per-symbol memo a caller keeps for the engine (the quote store's slot): which rules are
 * the symbol's, kept across ticks while the rule set stands, and never trusted past it.
 */

const memo = (): RuleMemo => ({ alertRules: null, alertEpoch: -1 })

function quote(symbol: string, last: number): Quote {
  return { ...blankQuote('crypto', symbol, 0, 'stream'), last }
}

const rearm = { repeat: 'rearm', hysteresisPct: 0, cooldownSec: 0 } as const

describe('AlertEngine with a per-symbol memo', () => {
  it('evaluates every tick of a symbol with rules, and none of one without, through the memo', () => {
    const engine = new AlertEngine({ clock: new FakeClock() })
    engine.setRules([alertRule({ kind: 'crosses', price: 100 }, rearm)])
    const btc = memo()
    const eth = memo()
    const fired = [99, 101, 99, 101].map((p) => engine.evaluate(quote('BTCUSDT', p), btc).length)
    expect(fired).toEqual([0, 1, 1, 1])
    expect(engine.evaluate(quote('ETHUSDT', 99), eth)).toEqual([])
    expect(engine.evaluate(quote('ETHUSDT', 101), eth)).toEqual([])
  })

  it('follows a new rule set at once: a moved level, a rule removed, a rule added', () => {
    const engine = new AlertEngine({ clock: new FakeClock() })
    engine.setRules([alertRule({ kind: 'crosses', price: 100 }, rearm)])
    const btc = memo()
    const eth = memo()
    engine.evaluate(quote('BTCUSDT', 99), btc)
    engine.evaluate(quote('ETHUSDT', 49), eth)
    engine.setRules([
      alertRule({ kind: 'crosses', price: 200 }, rearm),
      alertRule({ kind: 'crosses', price: 50 }, { ...rearm, id: 'r2', key: 'crypto:ETHUSDT' }),
    ])
    expect(engine.evaluate(quote('BTCUSDT', 101), btc)).toEqual([])
    expect(engine.evaluate(quote('BTCUSDT', 201), btc)).toHaveLength(1)
    // ETH had no rule when its memo was filled: its new rule sees its next ticks.
    expect(engine.evaluate(quote('ETHUSDT', 49), eth)).toEqual([])
    expect(engine.evaluate(quote('ETHUSDT', 51), eth)[0]?.ruleId).toBe('r2')
    engine.setRules([])
    expect(engine.evaluate(quote('BTCUSDT', 199), btc)).toEqual([])
    expect(engine.stateOf('r1')).toBeNull()
  })

  it('keeps two engines apart that share one memo', () => {
    const a = new AlertEngine({ clock: new FakeClock() })
    const b = new AlertEngine({ clock: new FakeClock() })
    a.setRules([alertRule({ kind: 'crosses', price: 100 }, rearm)])
    b.setRules([alertRule({ kind: 'crosses', price: 300 }, rearm)])
    const shared = memo()
    const both = (p: number): number[] =>
      [a, b].map((e) => e.evaluate(quote('BTCUSDT', p), shared).length)
    expect([both(99), both(101), both(299), both(301)]).toEqual([
      [0, 0],
      [1, 0],
      [0, 0],
      [0, 1],
    ])
  })
})
