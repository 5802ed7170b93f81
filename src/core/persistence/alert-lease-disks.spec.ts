import { linkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { FakeClock } from '../clock'
import { exfatDisk, fillDisk, tmpfsDisk, type Disk } from '../testing/disks'
import { AlertLease, unwritableWords } from './alert-lease'
import { readLease } from './lease-file'

/**
 * The lease on the disks a data folder meets: exFAT (no hard links), a full disk and a
 * read-only one, each a real mount (root needed; skipped where the machine refuses).
 */

const mounted: Disk[] = []
afterEach(() => {
  for (const d of mounted.splice(0)) d.unmount()
})

function mount(disk: Disk | null): Disk {
  if (disk === null) throw new Error('mount refused')
  mounted.push(disk)
  return disk
}

const canMount = ((): boolean => {
  const d = tmpfsDisk(64)
  d?.unmount()
  return d !== null
})()
const canExfat = ((): boolean => {
  const d = exfatDisk()
  d?.unmount()
  return d !== null
})()

const taker = (dir: string, role: string): AlertLease =>
  new AlertLease(dir, { role, clock: new FakeClock() })

describe.runIf(canExfat)('the alerts lease on exFAT (no hard links)', () => {
  it('is taken, renewed, fenced and given back where a hard link is refused', () => {
    const { dir } = mount(exfatDisk())
    writeFileSync(join(dir, 'probe'), 'x')
    expect(() => linkSync(join(dir, 'probe'), join(dir, 'probe-link'))).toThrow()
    const a = taker(dir, 'a')
    const held = a.claim(a.look())!
    held.renew()
    held.renew()
    const b = taker(dir, 'b')
    const look = b.look()
    expect(look.free).toBe(false)
    expect(look.holder).toMatchObject({ role: 'a', beat: 2 })
    held.release()
    const next = b.claim(b.look())
    expect(next?.epoch).toBe(held.epoch + 1)
    next!.renew()
    expect(() => held.check()).toThrow(/taken over by b/)
  })
})

describe.runIf(canMount)('the alerts lease on a full disk and a read-only one', () => {
  it('keeps renewing a lease held when the disk fills, and is taken over on it', () => {
    const { dir } = mount(tmpfsDisk(64))
    const held = taker(dir, 'a').claim(taker(dir, 'a').look())!
    held.renew()
    fillDisk(dir)
    for (let i = 0; i < 3; i++) held.renew()
    expect(readLease(dir)).toMatchObject({ kind: 'lease', lease: { beat: 4 } })
    held.release()
    const b = taker(dir, 'b')
    const next = b.claim(b.look())!
    next.renew()
    expect(readLease(dir)).toMatchObject({ kind: 'lease', lease: { role: 'b' } })
  })

  it('says the disk is full when a folder that never held a lease cannot start one', () => {
    const { dir } = mount(tmpfsDisk(64, { fill: fillDisk }))
    const a = taker(dir, 'a')
    const refused = capture(() => a.claim(a.look())?.renew())
    expect(unwritableWords(refused)).toBe('the disk is full')
  })

  it('says the folder is read-only when no lease can be claimed there', () => {
    const { dir } = mount(
      tmpfsDisk(64, { readOnly: true, fill: (d) => writeFileSync(join(d, 'alerts.json'), '{}') }),
    )
    const a = taker(dir, 'a')
    const look = a.look()
    expect(look.free).toBe(true)
    expect(unwritableWords(capture(() => a.claim(look)))).toBe(
      'the data folder is on a read-only disk',
    )
  })
})

function capture(fn: () => unknown): unknown {
  try {
    fn()
  } catch (e) {
    return e
  }
  throw new Error('expected a refusal')
}
