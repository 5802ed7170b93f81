import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { FakeClock } from '../clock'
import { AlertLease, LEASE_TTL_MS, unwritableWords, type HeldLease } from './alert-lease'
import { isLeaseLost } from './fence'
import { readLease, writeLease, type Lease } from './lease-file'

const folder = (): string => mkdtempSync(join(tmpdir(), 'tickdesk-lease-'))

/** A lease taker on `dir` whose expiry clock is `clock` (a FakeClock: the test moves time). */
function taker(dir: string, role: string, clock = new FakeClock()): AlertLease {
  return new AlertLease(dir, { role, clock, elapsed: () => clock.now() })
}

function take(lease: AlertLease): HeldLease {
  const look = lease.look()
  expect(look.free).toBe(true)
  const held = lease.claim(look)
  expect(held).not.toBeNull()
  held!.renew()
  return held!
}

/** A lease 'a' took, then `by` claimed once it had gone unrenewed for the TTL (not yet written). */
function takenOver(by: string): { dir: string; old: HeldLease; next: HeldLease } {
  const dir = folder()
  const clock = new FakeClock()
  const old = take(taker(dir, 'a'))
  const b = taker(dir, by, clock)
  b.look()
  clock.advance(LEASE_TTL_MS)
  const look = b.look()
  expect(look.free).toBe(true)
  const next = b.claim(look)
  expect(next).not.toBeNull()
  return { dir, old, next: next! }
}

/** A pid that ran and ended: what a kill -9'd owner leaves behind. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'])
  return Number(child.stdout.toString())
}

const lease = (over: Partial<Lease>): Lease => ({
  epoch: 1,
  token: 't',
  role: '`tickdesk alerts run`',
  host: hostname(),
  pid: process.pid,
  since: 0,
  beat: 1,
  ...over,
})

const sleeper = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'])
afterAll(() => void sleeper.kill('SIGKILL'))

describe('AlertLease: a heartbeat, never a pid', () => {
  it('gives the folder to the first taker and names it to the next', () => {
    const dir = folder()
    const first = take(taker(dir, '`tickdesk alerts run`'))
    const second = taker(dir, 'the Tickdesk app').look()
    expect(second.free).toBe(false)
    expect(second.holder).toMatchObject({ role: '`tickdesk alerts run`', epoch: first.epoch })
  })

  it('frees a lease given back at once, with the next epoch', () => {
    const dir = folder()
    const first = take(taker(dir, 'a'))
    first.release()
    expect(take(taker(dir, 'b')).epoch).toBe(first.epoch + 1)
  })

  it("frees at once a lease whose holder's pid is gone from this machine (a kill -9)", () => {
    const dir = folder()
    writeLease(dir, lease({ pid: deadPid() }))
    expect(taker(dir, 'b').look().free).toBe(true)
  })

  it('expires a lease not renewed for the TTL though its pid runs (a stopped process), not before', () => {
    const dir = folder()
    writeLease(dir, lease({ pid: sleeper.pid! }))
    const clock = new FakeClock()
    const b = taker(dir, 'b', clock)
    expect(b.look().free).toBe(false)
    clock.advance(LEASE_TTL_MS - 1)
    expect(b.look().free).toBe(false)
    clock.advance(1)
    expect(b.look().free).toBe(true)
  })

  it('keeps a renewed lease live however long it runs', () => {
    const dir = folder()
    const held = take(taker(dir, 'a'))
    const clock = new FakeClock()
    const b = taker(dir, 'b', clock)
    for (let i = 0; i < 20; i++) {
      clock.advance(1_000)
      held.renew()
      expect(b.look().free).toBe(false)
    }
  })

  it('expires a lease from another machine (or an old hostname) after the TTL, not never', () => {
    const dir = folder()
    writeLease(dir, lease({ host: `${hostname()}-elsewhere`, pid: deadPid() }))
    const clock = new FakeClock()
    const b = taker(dir, 'b', clock)
    expect(b.look().free).toBe(false)
    clock.advance(LEASE_TTL_MS)
    expect(b.look().free).toBe(true)
  })

  it('treats a lease it cannot read as live until the TTL (a rewrite caught half-way)', () => {
    const dir = folder()
    writeFileSync(join(dir, 'alerts.lease'), '{"epoch":3,"tok')
    const clock = new FakeClock()
    const b = taker(dir, 'b', clock)
    expect(b.look().free).toBe(false)
    clock.advance(LEASE_TTL_MS)
    expect(b.look().free).toBe(true)
    expect(take(b).epoch).toBe(1)
  })
})

describe('AlertLease: fencing by epoch', () => {
  it('refuses every write of an old epoch once a later one is claimed, before its lease is written', () => {
    const { dir, old, next } = takenOver('b')
    expect(next.epoch).toBe(old.epoch + 1)
    expect(fenced(() => old.check())).toBe(true)
    expect(fenced(() => old.renew())).toBe(true)
    next.renew()
    expect(fenced(() => old.check())).toBe(true)
    expect(() => next.check()).not.toThrow()
    // The old holder's give-back is refused too: it never frees what it no longer holds.
    old.release()
    expect(readLease(dir)).toMatchObject({ kind: 'lease', lease: { epoch: next.epoch } })
  })

  it('lets one of two takers of the same epoch win', () => {
    const dir = folder()
    const [lookA, lookB] = [taker(dir, 'a').look(), taker(dir, 'b').look()]
    expect(lookA.free && lookB.free).toBe(true)
    const got = [taker(dir, 'a').claim(lookA), taker(dir, 'b').claim(lookB)]
    expect(got.filter((g) => g !== null)).toHaveLength(1)
  })

  it('names the taker of a lost lease in its words', () => {
    const { old, next } = takenOver('the Tickdesk app')
    next.renew()
    expect(() => old.check()).toThrow(/taken over by the Tickdesk app \(pid \d+ on /)
  })
})

describe('unwritableWords', () => {
  it('says why a folder cannot hold a lease', () => {
    const err = (code: string): Error => Object.assign(new Error(code), { code })
    expect(unwritableWords(err('EROFS'))).toBe('the data folder is on a read-only disk')
    expect(unwritableWords(err('ENOSPC'))).toBe('the disk is full')
    expect(unwritableWords(err('EACCES'))).toContain('may not write')
  })
})

function fenced(write: () => void): boolean {
  try {
    write()
    return false
  } catch (e) {
    return isLeaseLost(e)
  }
}
