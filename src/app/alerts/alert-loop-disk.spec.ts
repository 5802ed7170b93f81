import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { FakeClock } from '../../core/clock'
import { FireJournal } from '../../core/persistence/fire-journal'
import { openDataStores } from '../../core/persistence/stores'
import { alertRule } from '../../core/testing/alert-rule'
import type { FiredAlert } from '../../shared/alerts/alert'
import { blankQuote } from '../../shared/quote'
import { AlertLoop } from './alert-loop'
import { NO_LEASE } from '../../core/persistence/fence'
import { editRules } from '../testing/alert-fixtures'

/**
 * A really full disk (issue 37, Deliver 4): the data folder on a 64 KiB tmpfs, filled to the
 * last byte. Needs root (mount); skipped where mounting is refused.
 */
function smallDisk(): string | null {
  const dir = mkdtempSync(join(tmpdir(), 'tickdesk-full-'))
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir], { stdio: 'ignore' })
    return dir
  } catch {
    return null
  }
}

const mounted: string[] = []
afterEach(() => {
  for (const dir of mounted.splice(0)) execFileSync('umount', [dir])
})

/** Writes filler until the filesystem refuses one more byte. */
function fill(dir: string): string {
  const path = join(dir, 'filler')
  let size = 64 * 1024
  for (; size > 0; size = Math.floor(size / 2)) {
    try {
      writeFileSync(path, Buffer.alloc(size), { flag: 'a' })
      size *= 2
    } catch {
      // Less room than that: try half.
    }
  }
  return path
}

const canMount = (() => {
  const dir = smallDisk()
  if (dir === null) return false
  execFileSync('umount', [dir])
  return true
})()

describe.runIf(canMount)('AlertLoop on a full disk', () => {
  it('announces a fire the journal could not take, marked not recorded, says the disk is full, and nothing is corrupt once it frees', async () => {
    const dir = smallDisk()!
    mounted.push(dir)
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
    const filler = fill(dir)
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
