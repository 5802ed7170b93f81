import { rmSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { FakeClock } from '../../core/clock'
import { FireJournal } from '../../core/persistence/fire-journal'
import { openDataStores } from '../../core/persistence/stores'
import { alertRule } from '../../core/testing/alert-rule'
import { fillDisk, tmpfsDisk, type Disk } from '../../core/testing/disks'
import type { FiredAlert } from '../../shared/alerts/alert'
import { blankQuote } from '../../shared/quote'
import { AlertLoop } from './alert-loop'
import { NO_LEASE } from '../../core/persistence/fence'
import { editRules } from '../testing/alert-fixtures'

/**
 * A really full disk: the data folder on a 64 KiB tmpfs, filled to the last byte. Needs root
 * (mount); skipped where mounting is refused.
 */
const mounted: Disk[] = []
afterEach(() => {
  for (const d of mounted.splice(0)) d.unmount()
})

function smallDisk(): string {
  const disk = tmpfsDisk(64)
  if (disk === null) throw new Error('mount refused')
  mounted.push(disk)
  return disk.dir
}

const canMount = ((): boolean => {
  const d = tmpfsDisk(64)
  d?.unmount()
  return d !== null
})()

describe.runIf(canMount)('AlertLoop on a full disk', () => {
  it('announces a fire the journal could not take, marked not recorded, says the disk is full, and nothing is corrupt once it frees', async () => {
    const dir = smallDisk()
    const stores = openDataStores(dir)
    const problems: string[] = []
    const loop = await AlertLoop.open({
      stores,
      clock: new FakeClock(),
      fence: NO_LEASE,
      firedBy: 'app',
      onProblem: (_code, message) => problems.push(message),
    })
    await editRules(loop, stores, [
      alertRule({ kind: 'above', price: 100 }, { id: 'r1', hysteresisPct: 0 }),
      alertRule({ kind: 'above', price: 200 }, { id: 'r2', hysteresisPct: 0 }),
    ])
    const heard: FiredAlert[] = []
    loop.addTarget({ name: 'desktop', deliver: (a) => void heard.push(a) })
    loop.start()
    const filler = fillDisk(dir)
    loop.evaluate({ ...blankQuote('crypto', 'BTCUSDT', 0, 'stream'), last: 150 })
    expect(heard.map((a) => [a.ruleId, a.notRecorded])).toEqual([['r1', true]])
    expect(problems.join('\n')).toContain('the disk is full')

    rmSync(filler)
    loop.evaluate({ ...blankQuote('crypto', 'BTCUSDT', 0, 'stream'), last: 250 })
    expect(heard.map((a) => [a.ruleId, a.notRecorded === true])).toEqual([
      ['r1', true],
      ['r2', false],
    ])
    const read = new FireJournal(dir).read()
    expect(read.skipped).toBe(0)
    expect(read.fires.map((f) => f.alert.ruleId)).toEqual(['r2'])
    await loop.close()
  })
})
