import { describe, expect, it } from 'vitest'
import type { AlertRule, AlertRuleState } from '../../../shared/alerts/alert'
import { alertLinesFor, lineText } from './alert-lines'

const rule = (id: string, key: string, condition: AlertRule['condition'], enabled = true) =>
  ({
    id,
    key,
    condition,
    enabled,
    createdAt: 1,
    repeat: 'once',
    hysteresisPct: 0.2,
    cooldownSec: 60,
    expiresAt: null,
    note: '',
  }) satisfies AlertRule

const state = (ruleId: string, status: AlertRuleState['status']): AlertRuleState => ({
  ruleId,
  status,
  lastFiredAt: null,
  lastPrice: null,
  lastSeenAt: null,
})

describe('alert lines of the shown symbol', () => {
  const rules = [
    rule('a', 'fx:EURUSD', { kind: 'above', price: 1.1 }),
    rule('b', 'fx:EURUSD', { kind: 'crosses', price: 1.05 }),
    rule('c', 'fx:EURUSD', { kind: 'channel', low: 1, high: 1.2, on: 'exit' }),
    rule('d', 'fx:EURUSD', { kind: 'movePct', pct: 1, minutes: 5 }),
    rule('e', 'fx:GBPUSD', { kind: 'below', price: 1.2 }),
    rule('f', 'fx:EURUSD', { kind: 'below', price: 0.9 }, false),
  ]
  const states = new Map([
    ['a', state('a', 'armed')],
    ['b', state('b', 'triggered')],
    ['c', state('c', 'cooldown')],
  ])
  const lines = alertLinesFor('fx:EURUSD', rules, (id) => states.get(id) ?? null)

  it('draws price levels of this symbol only, two for a range, none for a percent move', () => {
    expect(lines.map((l) => [l.id, l.level, l.price])).toEqual([
      ['a', 'price', 1.1],
      ['b', 'price', 1.05],
      ['c', 'low', 1],
      ['c', 'high', 1.2],
      ['f', 'price', 0.9],
    ])
  })

  it('says armed, triggered (also in cooldown) or off', () => {
    expect(lines.map((l) => l.status)).toEqual([
      'armed',
      'triggered',
      'triggered',
      'triggered',
      'off',
    ])
    expect(lineText(lines[0]!, '1.10000')).toBe('Alert above 1.10000, armed')
    expect(lineText(lines[3]!, '1.20000')).toBe('Alert range high 1.20000, triggered')
  })
})
