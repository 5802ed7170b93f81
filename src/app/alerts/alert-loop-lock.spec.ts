import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { AlertLoopLock, ownerWords, processStart, type LockOwner } from './alert-loop-lock'

const folder = (): string => mkdtempSync(join(tmpdir(), 'tickdesk-lock-'))

/** A pid that ran and ended: what a kill -9'd owner leaves behind. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'])
  return Number(child.stdout.toString())
}

function writeLock(dir: string, owner: Partial<LockOwner>): void {
  const full: LockOwner = {
    pid: process.pid,
    started: processStart(process.pid),
    host: hostname(),
    by: '`tickdesk alerts run`',
    since: 0,
    ...owner,
  }
  writeFileSync(join(dir, 'alerts.lock'), JSON.stringify(full))
}

describe('AlertLoopLock: one alert loop per data folder', () => {
  it('gives the lock to the first asker and names it to the second', () => {
    const dir = folder()
    const first = new AlertLoopLock(dir, '`tickdesk alerts run`', 1)
    const second = new AlertLoopLock(dir, '`tickdesk watch`', 2)
    expect(first.acquire()).toEqual({ owned: true })
    const got = second.acquire()
    expect(got.owned).toBe(false)
    expect(!got.owned && got.owner?.by).toBe('`tickdesk alerts run`')
    first.release()
    expect(second.acquire()).toEqual({ owned: true })
    expect(first.holds()).toBe(false)
  })

  it('takes over a lock left by a killed process at once (no staleness wait)', () => {
    const dir = folder()
    writeLock(dir, { pid: deadPid() })
    const lock = new AlertLoopLock(dir, '`tickdesk watch`', 5)
    expect(lock.acquire()).toEqual({ owned: true })
    expect(JSON.parse(readFileSync(lock.path, 'utf8'))).toMatchObject({
      pid: process.pid,
      since: 5,
    })
  })

  it.runIf(processStart(process.pid) !== null)(
    'does not take a reused pid for the owner (its start time differs)',
    () => {
      const dir = folder()
      writeLock(dir, { pid: process.ppid, started: '1' })
      expect(new AlertLoopLock(dir, '`tickdesk watch`', 5).acquire()).toEqual({ owned: true })
    },
  )

  it('never judges a lock taken on another machine dead', () => {
    const dir = folder()
    writeLock(dir, { pid: deadPid(), host: `${hostname()}-elsewhere` })
    expect(new AlertLoopLock(dir, '`tickdesk watch`', 5).acquire().owned).toBe(false)
  })

  it('says who runs the alerts in the words the trader reads', () => {
    const since = new Date(2026, 0, 5, 9, 30).getTime()
    expect(
      ownerWords({ pid: 4242, started: null, host: 'h', by: '`tickdesk alerts run`', since }),
    ).toBe('alerts are run by `tickdesk alerts run`, pid 4242, since 09:30')
  })
})
