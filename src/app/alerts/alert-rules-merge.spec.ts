import { describe, expect, it } from 'vitest'
import { alertRule } from '../../core/testing/alert-rule'
import type { AlertRule } from '../../shared/alerts/alert'
import { mergeRules } from './alert-rules-merge'

const r = (id: string, over: Partial<AlertRule> = {}): AlertRule =>
  alertRule({ kind: 'above', price: 100 }, { id, ...over })

describe('mergeRules: the app’s rules and a CLI’s edit of the same file', () => {
  it('takes the CLI’s snooze of a rule the app left alone, and keeps the rule the app added', () => {
    const base = [r('a'), r('b')]
    const ours = [r('a'), r('b'), r('mine')]
    const theirs = [r('a', { snoozedUntil: 5 }), r('b')]
    expect(mergeRules(base, ours, theirs)).toEqual([r('a', { snoozedUntil: 5 }), r('b'), r('mine')])
  })

  it('keeps the app’s version where both changed a rule', () => {
    const base = [r('a')]
    const ours = [r('a', { enabled: false })]
    const theirs = [r('a', { snoozedUntil: 5 })]
    expect(mergeRules(base, ours, theirs)).toEqual([r('a', { enabled: false })])
  })

  it('adds what the CLI added and drops what it removed, after the app’s own', () => {
    const base = [r('a'), r('b')]
    const ours = [r('a'), r('b')]
    const theirs = [r('b'), r('cli')]
    expect(mergeRules(base, ours, theirs).map((x) => x.id)).toEqual(['b', 'cli'])
  })

  it('drops what the app removed, even if the CLI left it', () => {
    const base = [r('a'), r('b')]
    expect(mergeRules(base, [r('b')], base).map((x) => x.id)).toEqual(['b'])
  })

  it('reads a rule whose keys come in another order (from the file) as unchanged', () => {
    const fromFile = JSON.parse(JSON.stringify(r('a'), Object.keys(r('a')).reverse())) as AlertRule
    fromFile.condition = { kind: 'above', price: 100 }
    const theirs = [r('a', { snoozedUntil: 5 })]
    expect(mergeRules([fromFile], [r('a')], theirs)).toEqual(theirs)
  })
})
