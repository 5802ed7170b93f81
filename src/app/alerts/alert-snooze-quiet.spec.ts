import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { editRules } from '../testing/alert-fixtures'
import { describe, expect, it } from 'vitest'
import { AlertEngine } from '../../core/alerts/alert-engine'
import { FakeClock } from '../../core/clock'
import { openDataStores } from '../../core/persistence/stores'
import type { AlertRule, FiredAlert } from '../../shared/alerts/alert'
import { inQuietHours } from '../../shared/alerts/quiet-hours'
import { blankQuote } from '../../shared/quote'
import { AlertLoop } from './alert-loop'
import { alertRule } from '../../core/testing/alert-rule'
import { NO_LEASE } from '../../core/persistence/fence'

const MIN = 60_000

const rule = (over: Partial<AlertRule> = {}): AlertRule =>
  alertRule({ kind: 'above', price: 100 }, { hysteresisPct: 0, ...over })

const quote = (last: number) => ({ ...blankQuote('crypto', 'BTCUSDT', 0, 'stream'), last })

describe('snooze', () => {
  it('a fired once-rule snoozed for 15 min stays quiet, then fires once more if it still holds', () => {
    const clock = new FakeClock()
    const engine = new AlertEngine({ clock, newId: () => 'a' })
    engine.setRules([rule()])
    expect(engine.evaluate(quote(101))).toHaveLength(1)
    engine.setRules([rule({ snoozedUntil: clock.now() + 15 * MIN })])
    expect(engine.states()[0]?.status).toBe('snoozed')
    clock.advance(14 * MIN)
    expect(engine.evaluate(quote(105))).toEqual([])
    clock.advance(2 * MIN)
    expect(engine.states()[0]?.status).toBe('armed')
    expect(engine.evaluate(quote(106))).toHaveLength(1)
    expect(engine.evaluate(quote(107))).toEqual([])
  })
})

describe('quiet hours', () => {
  it('runs over midnight in local time', () => {
    const q = { enabled: true, start: '22:00', end: '07:00' }
    const at = (h: number, m = 0): number => Date.UTC(2026, 0, 5, h, m)
    expect(inQuietHours(q, at(23), 0)).toBe(true)
    expect(inQuietHours(q, at(6, 59), 0)).toBe(true)
    expect(inQuietHours(q, at(7), 0)).toBe(false)
    expect(inQuietHours(q, at(12), 0)).toBe(false)
    // 21:30 UTC is 22:30 at UTC+1.
    expect(inQuietHours(q, at(21, 30), 60)).toBe(true)
    expect(inQuietHours({ ...q, enabled: false }, at(23), 0)).toBe(false)
  })

  it('a fire in quiet hours is marked quiet, in the history and still delivered to the tray', async () => {
    const stores = openDataStores(mkdtempSync(join(tmpdir(), 'tickdesk-quiet-')))
    let quiet = true
    const loop = await AlertLoop.open({
      stores,
      clock: new FakeClock(),
      fence: NO_LEASE,
      firedBy: 'app',
      quietNow: () => quiet,
      onProblem: () => undefined,
    })
    const got: FiredAlert[] = []
    loop.addTarget({ name: 'desktop', deliver: (a) => void got.push(a) })
    loop.start()
    await editRules(loop, stores, [
      rule(),
      rule({ id: 'r2', condition: { kind: 'above', price: 200 } }),
    ])
    loop.evaluate(quote(150))
    quiet = false
    loop.evaluate(quote(250))
    expect(got.map((a) => [a.ruleId, a.quiet === true])).toEqual([
      ['r1', true],
      ['r2', false],
    ])
    await loop.close()
    const saved = (await stores.alertHistory.load()).value
    expect(saved.map((a) => a.quiet === true)).toEqual([true, false])
  })
})
