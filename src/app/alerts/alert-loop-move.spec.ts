import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { FakeClock } from '../../core/clock'
import { openDataStores } from '../../core/persistence/stores'
import { alertRule } from '../../core/testing/alert-rule'
import type { FiredAlert } from '../../shared/alerts/alert'
import { blankQuote } from '../../shared/quote'
import { openAppAlertLoop, editRules } from '../testing/alert-fixtures'

/** A level moved after its rule fired, in a real data folder; "a crash" is a loop not closed. */

const quote = (last: number): ReturnType<typeof blankQuote> => ({
  ...blankQuote('crypto', 'BTCUSDT', 0, 'stream'),
  last,
})

describe('AlertLoop: a level moved after the rule fired', () => {
  it('stays armed through a crash while the fire is still owed to a webhook that is down', async () => {
    const stores = openDataStores(mkdtempSync(join(tmpdir(), 'tickdesk-loop-move-')))
    const clock = new FakeClock()
    const first = await openAppAlertLoop(stores, clock)
    first.addTarget({ name: 'webhook', deliver: () => Promise.reject(new Error('down')) })
    first.start()
    const rule = alertRule({ kind: 'above', price: 100 }, { id: 'r1' })
    await editRules(first, stores, [rule])
    first.evaluate(quote(101))
    const [fire] = first.history()
    await editRules(first, stores, [{ ...rule, condition: { kind: 'above', price: 105 } }])
    expect(first.states()[0]?.status).toBe('armed')
    // No close(): the process dies here, the fire still owed to the webhook.

    const second = await openAppAlertLoop(stores, clock)
    const owed: FiredAlert[] = []
    second.addTarget({ name: 'webhook', deliver: (a) => void owed.push(a) })
    second.start()
    expect(owed.map((a) => a.id)).toEqual([fire?.id])
    expect(second.states()[0]).toMatchObject({ ruleId: 'r1', status: 'armed' })
    second.evaluate(quote(104))
    second.evaluate(quote(106))
    expect(second.history().map((a) => a.message)).toEqual([
      expect.stringMatching(/above 100/),
      expect.stringMatching(/above 105/),
    ])
  })
})
