import type { Clock, TimerHandle } from '../core/clock'

/**
 * Files the app keeps open can be changed under it: `tickdesk positions add` or `tickdesk alerts
 * add` while the app runs. Without a look at the disk the app's next save would write its older
 * copy over the trader's edit. Every few seconds each watched file is checked (a stat, and a
 * read only when the stat cannot prove the file unwritten since this app last read it:
 * persistence/read-gate.ts) and a new value is taken in whole.
 *
 * Polling rather than fs.watch: an atomic save replaces the file (a new inode), which fs.watch
 * loses on some platforms; a stat of each file every few seconds is what a desk at rest pays.
 */

/** A store that can say what another writer put in its file (JsonStore.outsideChange). */
export interface ChangeableFile<T> {
  outsideChange(): Promise<T | null>
}

interface Watched {
  check(): Promise<void>
}

export const OUTSIDE_EDITS_EVERY_MS = 3_000

export class OutsideEdits {
  private readonly files: Watched[] = []
  private timer: TimerHandle | null = null
  private closed = false
  private running: Promise<void> = Promise.resolve()

  constructor(
    private readonly clock: Clock,
    private readonly everyMs = OUTSIDE_EDITS_EVERY_MS,
  ) {}

  /** `take` gets the file's new value; it owns announcing it (and may save it again). */
  watch<T>(file: ChangeableFile<T>, take: (value: T) => Promise<void> | void): void {
    this.files.push({
      check: async () => {
        const value = await file.outsideChange()
        if (value !== null) await take(value)
      },
    })
  }

  start(): void {
    if (this.closed || this.timer !== null) return
    this.schedule()
  }

  /** One pass over every file now (tests, and a host that just woke from sleep). */
  checkNow(): Promise<void> {
    this.running = this.running.then(() => this.pass())
    return this.running
  }

  async close(): Promise<void> {
    this.closed = true
    this.clock.clearTimeout(this.timer)
    this.timer = null
    await this.running
  }

  private schedule(): void {
    this.timer = this.clock.setTimeout(() => {
      void this.checkNow().finally(() => {
        if (!this.closed) this.schedule()
      })
    }, this.everyMs)
  }

  private async pass(): Promise<void> {
    for (const f of this.files) {
      if (this.closed) return
      // One file failing to read (permissions, a disk gone) must not stop the others.
      await f.check().catch(() => undefined)
    }
  }
}
