import { describe, expect, it } from 'vitest'
import { FakeClock } from '../clock'
import { alertRule } from '../testing/alert-rule'
import { AlertEngine } from './alert-engine'
import {
  AlertConditionSchema,
  type AlertCondition,
  type FiredAlert,
} from '../../shared/alerts/alert'
import { describeCondition } from '../../shared/alerts/alert-describe'
import { blankQuote } from '../../shared/quote'

function setup(c: AlertCondition, repeat: 'once' | 'rearm' = 'once') {
  const engine = new AlertEngine({ clock: new FakeClock(), newId: () => 'a' })
  engine.setRules([alertRule(c, { repeat })])
  return (bid: number | null, ask: number | null): FiredAlert[] =>
    engine.evaluate({ ...blankQuote('crypto', 'BTCUSDT', 0, 'stream'), last: 100, bid, ask })
}

describe('AlertEngine: spread above X', () => {
  it('fires when ask − bid reaches X bps of the mid, with both sides of the spread in the message', () => {
    const feed = setup({ kind: 'spread', above: 20, unit: 'bps' })
    expect(feed(99.95, 100.05)).toEqual([]) // 10 bp
    const [fired] = feed(99.875, 100.125) // 25 bp
    expect(fired?.message).toBe('BTCUSDT spread 25 bp (0.25, past 20 bp) (100)')
    expect(feed(99, 101)).toEqual([]) // once
  })

  it('watches the spread in price when asked to', () => {
    const feed = setup({ kind: 'spread', above: 0.5, unit: 'price' })
    expect(feed(99.8, 100.2)).toEqual([])
    const [fired] = feed(99.7, 100.3)
    expect(fired?.message).toBe('BTCUSDT spread 0.6 (60 bp, past 0.5) (100)')
  })

  it('never fires, and never re-arms, on a quote without a bid or an ask', () => {
    const feed = setup({ kind: 'spread', above: 1, unit: 'bps' }, 'rearm')
    expect(feed(null, 100.5)).toEqual([])
    expect(feed(99.5, null)).toEqual([])
    expect(feed(99, 101)).toHaveLength(1)
    expect(feed(null, null)).toEqual([]) // says nothing: stays triggered
    expect(feed(99, 101)).toEqual([])
    expect(feed(99.9999, 100.0001)).toEqual([]) // narrowed: re-armed
    expect(feed(99, 101)).toHaveLength(1)
  })

  it('reads "spread ≥ 20 bp" in every host, bps when no unit is given, and refuses zero', () => {
    const c = AlertConditionSchema.parse({ kind: 'spread', above: 20 })
    expect(c).toEqual({ kind: 'spread', above: 20, unit: 'bps' })
    expect(describeCondition(c)).toBe('spread ≥ 20 bp')
    expect(describeCondition({ kind: 'spread', above: 0.5, unit: 'price' })).toBe('spread ≥ 0.5')
    expect(AlertConditionSchema.safeParse({ kind: 'spread', above: 0 }).success).toBe(false)
  })
})
