import { randomInt } from 'node:crypto'
import { renameSync } from 'node:fs'
import { open, readdir, readFile, stat, unlink, writeFile } from 'node:fs/promises'
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
 *
 * A temp's age is read on the file system's own clock (the mtime of a probe written now), not the
 * process's: a network folder's server can run minutes off this machine, and a live writer's temp
 * judged old on the wrong clock would be deleted under it, failing its save.
 */
export async function removeOrphanedTemps(path: string): Promise<number> {
  const dir = dirname(path)
  const prefix = `${basename(path)}.`
  let names: string[]
  try {
    names = await readdir(dir)
  } catch {
    return 0
  }
  const temps = names.filter(
    (name) => name.startsWith(prefix) && /^\d+$/.test(name.slice(prefix.length)),
  )
  if (temps.length === 0) return 0
  const now = await fileSystemNow(`${path}.clock-probe`)
  if (now === null) return 0
  let removed = 0
  for (const name of temps) {
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

/** The file system's time now, as the mtime of a file written now; null where nothing can be written. */
async function fileSystemNow(probe: string): Promise<number | null> {
  try {
    await writeFile(probe, '')
    const { mtimeMs } = await stat(probe)
    await unlink(probe)
    return mtimeMs
  } catch {
    return null
  }
}
