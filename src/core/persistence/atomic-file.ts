import { readFile } from 'node:fs/promises'
import writeFileAtomicLib from 'write-file-atomic'
import { TickdeskError } from '../errors'

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

/** Writes `data` to `path` atomically (mode 0600: the data dir is private). */
export async function writeFileAtomic(
  path: string,
  data: string,
  writer: AtomicWriter = defaultWriter,
): Promise<void> {
  try {
    await writer(path, data, 0o600)
  } catch (cause) {
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
