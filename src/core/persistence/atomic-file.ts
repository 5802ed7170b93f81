import { randomInt } from 'node:crypto'
import { renameSync } from 'node:fs'
import { open, readdir, readFile, stat, unlink } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import writeFileAtomicLib from 'write-file-atomic'
import { TickdeskError } from '../errors'
import type { Fence } from './fence'

/**
 * Whole-file writes that leave either the old or the new content, never a torn file:
 * write-file-atomic writes a temp file beside the target, fsyncs it and renames it over the
 * target (rename is atomic within a directory on POSIX and NTFS). The temp file is removed on
 * failure, so a full disk leaves the previous file as it was.
 */

/** The low-level writer; injectable so tests can simulate a full disk. */
export type AtomicWriter = (path: string, data: string, mode: number) => Promise<void>

export const defaultWriter: AtomicWriter = (path, data, mode) =>
  writeFileAtomicLib(path, data, { encoding: 'utf8', fsync: true, mode })

const SPACE_CODES = new Set(['ENOSPC', 'EDQUOT'])

/**
 * A writer whose last step, the rename, happens only while `fence` holds: the temp file is
 * written and flushed first (awaits allowed), then the fence is asked and the rename done with
 * no await between (fence.ts). A refused fence throws LEASE_LOST and the temp file is removed.
 * Temp names are write-file-atomic's (`<file>.<uint32>`), so removeOrphanedTemps clears them.
 */
export function fencedWriter(fence: Fence): AtomicWriter {
  return async (path, data, mode) => {
    const temp = `${path}.${randomInt(2 ** 32)}`
    try {
      const file = await open(temp, 'w', mode)
      try {
        await file.writeFile(data, 'utf8')
        await file.sync()
      } finally {
        await file.close()
      }
      fence.check()
      renameSync(temp, path)
    } catch (e) {
      await unlink(temp).catch(() => undefined)
      throw e
    }
  }
}

/** Writes `data` to `path` atomically (mode 0600: the data dir is private). */
export async function writeFileAtomic(
  path: string,
  data: string,
  writer: AtomicWriter = defaultWriter,
): Promise<void> {
  try {
    await writer(path, data, 0o600)
  } catch (cause) {
    if (cause instanceof TickdeskError) throw cause
    const code = errnoCode(cause)
    if (code !== null && SPACE_CODES.has(code)) {
      throw new TickdeskError({
        code: 'DISK_FULL',
        message: `Not enough disk space to save ${path}; the previous version was kept.`,
        cause,
      })
    }
    throw new TickdeskError({
      code: 'STORAGE_WRITE',
      message: `Could not save ${path}: ${code ?? String(cause)}; the previous version was kept.`,
      cause,
    })
  }
}

/** The file's text, or null when it does not exist. Other read errors are thrown. */
export async function readTextIfExists(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8')
  } catch (e) {
    if (errnoCode(e) === 'ENOENT') return null
    throw e
  }
}

export function errnoCode(e: unknown): string | null {
  if (typeof e === 'object' && e !== null && 'code' in e && typeof e.code === 'string') {
    return e.code
  }
  return null
}

/** A temp file this old was left by a process killed mid-write; a live writer renames within ms. */
const ORPHAN_AGE_MS = 60_000

/**
 * Removes temp files that write-file-atomic left beside `path` when the process was killed between
 * writing and renaming (`<file>.<uint32>`). They are never read, but they would pile up.
 */
export async function removeOrphanedTemps(path: string, now: number = Date.now()): Promise<number> {
  const dir = dirname(path)
  const prefix = `${basename(path)}.`
  let removed = 0
  let names: string[]
  try {
    names = await readdir(dir)
  } catch {
    return 0
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || !/^\d+$/.test(name.slice(prefix.length))) continue
    try {
      const info = await stat(join(dir, name))
      if (now - info.mtimeMs < ORPHAN_AGE_MS) continue
      await unlink(join(dir, name))
      removed++
    } catch {
      // Gone already, or not ours to delete: either way nothing to do.
    }
  }
  return removed
}
