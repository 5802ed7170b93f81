import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { editRules, openAppAlertLoop } from '../testing/alert-fixtures'
import { describe, expect, it } from 'vitest'
import { FakeClock } from '../../core/clock'
import { openDataStores } from '../../core/persistence/stores'
import type { AlertCondition, AlertRule, FiredAlert } from '../../shared/alerts/alert'
import { blankQuote, type Quote } from '../../shared/quote'
import type { AlertLoop } from './alert-loop'
import { alertRule } from '../../core/testing/alert-rule'

/**
 * The client's wall clock is not an order: it steps back (NTP, a trader fixing
 * the time by hand). Rule states and replay are ordered by the journal's sequence number, and a
 * cooldown never stretches by the size of the step. "A crash" is dropping a loop without close().
 */

const HOUR = 3_600_000
const rule = (condition: AlertCondition, over: Partial<AlertRule> = {}): AlertRule =>
  alertRule(condition, { id: 'r1', hysteresisPct: 0, ...over })

function quote(last: number): Quote {
  return { ...blankQuote('crypto', 'BTCUSDT', 0, 'stream'), last }
}

function folder(): { dir: string; clock: FakeClock } {
  return { dir: mkdtempSync(join(tmpdir(), 'tickdesk-clock-')), clock: new FakeClock() }
}

const open = (f: ReturnType<typeof folder>): Promise<AlertLoop> =>
  openAppAlertLoop(openDataStores(f.dir), f.clock)

function heard(loop: AlertLoop): FiredAlert[] {
  const got: FiredAlert[] = []
  loop.addTarget({ name: 'desktop', deliver: (a) => void got.push(a) })
  loop.start()
  return got
}

describe('AlertLoop: the wall clock stepping back', () => {
  it('keeps a fire made after the clock stepped back an hour over an older save (no second fire)', async () => {
    const f = folder()
    const first = await open(f)
    await editRules(first, openDataStores(f.dir), [
      rule({ kind: 'above', price: 100 }, { repeat: 'rearm' }),
    ])
    const one = heard(first)
    first.evaluate(quote(101)) // fires at T
    first.evaluate(quote(99)) // re-armed, still lastFiredAt T
    await first.close() // saved: armed, last fired at T

    f.clock.jump(-HOUR) // the client's clock steps back an hour
    const second = await open(f)
    const two = heard(second)
    second.evaluate(quote(101)) // a new crossing, at T - 1 h
    // no close(): the process dies with the fire in the journal only

    const third = await open(f)
    const three = heard(third)
    third.evaluate(quote(102)) // the same crossing, still above
    expect(one).toHaveLength(1)
    expect(two).toHaveLength(1)
    expect(three).toEqual([])
    expect(third.states()[0]?.status).toBe('triggered')
    // The history keeps the order of firing, not the order of the (stepped) clock.
    expect(third.history().map((a) => a.id)).toEqual([one[0]?.id, two[0]?.id])
  })

  it('holds a cooldown for its length after the clock stepped back, not an hour more', async () => {
    const f = folder()
    const loop = await open(f)
    await editRules(loop, openDataStores(f.dir), [
      rule({ kind: 'above', price: 100 }, { repeat: 'rearm', cooldownSec: 300 }),
    ])
    const got = heard(loop)
    loop.evaluate(quote(101))
    loop.evaluate(quote(99))
    f.clock.jump(-HOUR)
    loop.evaluate(quote(101)) // within a cooldown of the step: cooling
    expect(got).toHaveLength(1)
    f.clock.advance(301_000)
    loop.evaluate(quote(99))
    loop.evaluate(quote(101))
    expect(got).toHaveLength(2)
  })
})
