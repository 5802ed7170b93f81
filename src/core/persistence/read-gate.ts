import { stat } from 'node:fs/promises'
import { performance } from 'node:perf_hooks'
import { errnoCode } from './atomic-file'

/**
 * Whether a file can have been written since this process last read it, told by one stat instead
 * of reading it whole: a check every few seconds of files that seldom change (another process's
 * edits, outside-edits.ts) then costs one stat a file, not an open, a read and a close each.
 *
 * A stat proves nothing changed only when every write would have moved it. Any write moves the
 * change time (ctime, which no user call can set back; utimes moves it too), a replacing rename
 * moves the inode, and the size and mtime are compared as well. But a stamp is only as fine as
 * the file system's clock: 2 s on FAT, 1 s on some others, a few ms on ext4. A second write in
 * the same tick as the first, keeping the size, leaves the stamp as it was. Such a write lands
 * less than one tick after the stamp first showed, and the stamp's time was no later than the
 * stat that first showed it. So a stamp counts only once it has settled (the way git treats a
 * "racily clean" file): once the file was read whole SETTLED_AFTER_MS or more, on this process's
 * monotonic clock, after this stamp first showed; until then every check reads the file whole,
 * as before. Only elapsed time on this machine is compared: no file time is set against a clock,
 * so a faked calendar or a folder on a machine whose clock is off changes nothing.
 *
 * A network folder may answer a stat from a cache (NFS: up to a minute) where an open looks
 * again; every READ_ANYWAY_EVERY checks the file is read whole whatever its stamp says, which
 * bounds that. Missing files settle at once (a file created later has a stamp).
 */
export const SETTLED_AFTER_MS = 10_000
/** Every this many checks the file is read whole whatever its stamp says. */
export const READ_ANYWAY_EVERY = 20

/** What one look saw: unchanged, or the stamp (null: the stat failed) and when it was taken. */
export type Look =
  { unchanged: true } | { unchanged: false; key: string | null; before: number; after: number }

export class ReadGate {
  private seen: { key: string; since: number; settled: boolean } | null = null
  private skipped = 0

  constructor(
    private readonly path: string,
    /** A monotonic clock in ms (default performance.now). */
    private readonly elapsed: () => number = () => performance.now(),
  ) {}

  /** Stats the file: unchanged when its stamp has settled and is the one read last. */
  async look(): Promise<Look> {
    const before = this.elapsed()
    const key = await stampOf(this.path)
    const after = this.elapsed()
    const seen = this.seen
    if (key !== null && seen?.settled === true && key === seen.key) {
      if (++this.skipped < READ_ANYWAY_EVERY) return { unchanged: true }
      this.skipped = 0
    }
    return { unchanged: false, key, before, after }
  }

  /**
   * The file was read whole after `look`: the text is at least as new as the stamp (its stat came
   * first), so once the stamp has settled, a later check that finds it again finds the same text.
   */
  read(look: Look): void {
    if (look.unchanged || look.key === null) return
    const { key, before, after } = look
    if (this.seen?.key === key) {
      if (before - this.seen.since >= SETTLED_AFTER_MS) this.seen.settled = true
      return
    }
    this.seen = { key, since: after, settled: key === MISSING }
  }

  /** This process wrote or moved the file: the next check reads it whole. */
  forget(): void {
    this.seen = null
  }
}

const MISSING = 'missing'

/** The file's stamp; null when the stat itself fails (then the file is read, as before). */
async function stampOf(path: string): Promise<string | null> {
  try {
    const s = await stat(path, { bigint: true })
    return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`
  } catch (e) {
    return errnoCode(e) === 'ENOENT' ? MISSING : null
  }
}
