import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * Real disks of the kinds a data folder can sit on, for specs that must meet them as they are:
 * a tiny tmpfs (filled to the last byte: a full disk), a read-only one, and an exFAT volume (no
 * hard links, as on a USB stick or an SD card). Mounting needs root; each maker returns null
 * where the machine refuses, and the spec is skipped there (and says so by its runIf).
 * exFAT needs exfatprogs and exfat-fuse (apt) and a loop device.
 */

export interface Disk {
  dir: string
  unmount(): void
}

const run = (cmd: string, args: string[]): string =>
  execFileSync(cmd, args, { stdio: ['ignore', 'pipe', 'ignore'] })
    .toString()
    .trim()

/** A tmpfs of `kb` KiB; `fill` is run on it before it is remounted read-only when `readOnly`. */
export function tmpfsDisk(
  kb: number,
  opts: { readOnly?: boolean; fill?: (dir: string) => void } = {},
): Disk | null {
  const dir = mkdtempSync(join(tmpdir(), 'tickdesk-disk-'))
  try {
    run('mount', ['-t', 'tmpfs', '-o', `size=${kb}k`, 'tmpfs', dir])
  } catch {
    rmSync(dir, { recursive: true, force: true })
    return null
  }
  const disk = { dir, unmount: () => void run('umount', [dir]) }
  try {
    opts.fill?.(dir)
    if (opts.readOnly) run('mount', ['-o', 'remount,ro', dir])
  } catch (e) {
    disk.unmount()
    throw e
  }
  return disk
}

/** An exFAT volume (4 MiB, on a loop device, through FUSE). */
export function exfatDisk(): Disk | null {
  const image = join(mkdtempSync(join(tmpdir(), 'tickdesk-exfat-')), 'volume.img')
  const dir = mkdtempSync(join(tmpdir(), 'tickdesk-exfat-mnt-'))
  let device = ''
  try {
    writeFileSync(image, Buffer.alloc(0))
    run('truncate', ['-s', '4M', image])
    run('mkfs.exfat', [image])
    device = run('losetup', ['-f', '--show', image])
    run('mount.exfat-fuse', [device, dir])
  } catch {
    if (device !== '') run('losetup', ['-d', device])
    return null
  }
  return {
    dir,
    unmount: () => {
      run('umount', [dir])
      run('losetup', ['-d', device])
    },
  }
}

/** Writes filler into `dir` until the filesystem refuses one more byte; returns its path. */
export function fillDisk(dir: string): string {
  const path = join(dir, 'filler')
  for (let size = 64 * 1024; size > 0; size = Math.floor(size / 2)) {
    try {
      writeFileSync(path, Buffer.alloc(size), { flag: 'a' })
      size *= 2
    } catch {
      // Less room than that: try half.
    }
  }
  return path
}
