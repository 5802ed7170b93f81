import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { FakeClock } from '../../core/clock'
import { openDataStores } from '../../core/persistence/stores'
import type { FiredAlert } from '../../shared/alerts/alert'
import { blankQuote, type Quote } from '../../shared/quote'
import { AlertLoop } from './alert-loop'
import { alertRule } from '../../core/testing/alert-rule'
import { rulesEditedHere } from './alert-rule-source'

/**
 * A standby loop (the app while `tickdesk alerts run` owns the folder) taking the alerts over: it
 * judges quotes only on the states the previous owner left, never on its own older copy. Found by
 * test/faults/alerts-one-loop.spec.ts under a loaded machine: the app fired the runner's once-alert
 * again ("is above") from a quote that came while it read the runner's files.
 */
const quote = (last: number): Quote => ({ ...blankQuote('crypto', 'BTCUSDT', 0, 'stream'), last })

function open(dir: string, clock: FakeClock, standby: boolean): Promise<AlertLoop> {
  return AlertLoop.open({
    stores: openDataStores(dir),
    clock,
    rules: rulesEditedHere(),
    firedBy: standby ? 'app' : 'runner',
    onProblem: () => undefined,
    ...(standby ? { standby: true } : {}),
  })
}

function heard(loop: AlertLoop): FiredAlert[] {
  const got: FiredAlert[] = []
  loop.addTarget({ name: 'desktop', deliver: (a) => void got.push(a) })
  loop.start()
  return got
}

describe('AlertLoop: taking over from the owner', () => {
  it("fires nothing the owner fired, on a quote that arrives while it reads the owner's files", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tickdesk-takeover-'))
    const clock = new FakeClock()
    const owner = await open(dir, clock, false)
    await owner.setRules([alertRule({ kind: 'above', price: 100 }, { id: 'r1', repeat: 'once' })])
    const standby = await open(dir, clock, true) // read the rule armed, as the app at its start
    const byStandby = heard(standby)
    const byOwner = heard(owner)
    owner.evaluate(quote(101))
    await owner.close() // the owner's end: the once-alert saved as fired

    const taking = standby.activate()
    standby.evaluate(quote(101)) // the feed runs on while the files are read
    await taking
    standby.evaluate(quote(102))
    expect(byOwner).toHaveLength(1)
    expect(byStandby).toEqual([])
    expect(standby.states()[0]?.status).toBe('triggered')
    await standby.close()
  })
})
