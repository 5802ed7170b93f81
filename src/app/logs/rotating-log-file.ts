import { appendFile, mkdir, rename, stat, truncate as truncateFile } from 'node:fs/promises'
import { join } from 'node:path'

/**
 * A size-capped, rotating JSON-lines file (architecture: Logs): tickdesk.log, then .1 and .2 as
 * it fills, so the folder never holds more than `files` x `maxBytes`. Hand-written instead of a
 * logging library: the hosts need exactly this (append, rotate, never block, never throw), which
 * is a hundred lines, where pino + pino-roll or winston bring a dozen packages.
 *
 * write() only queues; one append at a time runs in the background, so a slow disk never blocks
 * the caller. If a write fails (disk full, folder removed, read-only), the waiting lines are
 * dropped, `onTrouble` is told once, and when a later write works the file says how many lines
 * were lost. The file's size is read before each append, so several processes sharing one data
 * folder (the app and a `tickdesk watch`) still rotate near the cap.
 *
 * States: idle --write--> writing --queue empty--> idle
 *         writing --append fails--> troubled (lines dropped) --append works--> writing
 */
export interface RotatingLogFileOptions {
  dir: string
  name?: string
  maxBytes?: number
  /** The live file plus rotated ones. */
  files?: number
  /** Lines waiting beyond this many bytes are dropped (a disk slower than the log). */
  maxQueuedBytes?: number
  /** Told once when lines start being dropped, with the reason. */
  onTrouble?: (message: string) => void
  /** Wall time for the "lines were dropped" note; the lines themselves carry their own. */
  now?: () => number
}

export const LOG_FILE_NAME = 'tickdesk.log'
export const LOG_MAX_BYTES = 1_000_000
export const LOG_FILES = 3
/** A single line longer than this is cut: one huge field must not flush the whole history. */
export const LOG_MAX_LINE_BYTES = 16_384

export class RotatingLogFile {
  readonly path: string
  private readonly maxBytes: number
  private readonly files: number
  private readonly maxQueuedBytes: number
  private queue: string[] = []
  private queuedBytes = 0
  private dropped = 0
  private troubled = false
  private draining: Promise<void> | null = null
  private dirReady = false

  constructor(private readonly opts: RotatingLogFileOptions) {
    this.path = join(opts.dir, opts.name ?? LOG_FILE_NAME)
    this.maxBytes = opts.maxBytes ?? LOG_MAX_BYTES
    this.files = Math.max(1, opts.files ?? LOG_FILES)
    this.maxQueuedBytes = opts.maxQueuedBytes ?? Math.min(256_000, this.maxBytes)
  }

  /** Queues one line (without its newline); never throws, never waits. */
  write(line: string): void {
    const text = `${truncate(line, Math.min(LOG_MAX_LINE_BYTES, this.maxBytes - 1))}\n`
    const bytes = Buffer.byteLength(text)
    if (this.queuedBytes + bytes > this.maxQueuedBytes) {
      this.dropped++
      return
    }
    this.queue.push(text)
    this.queuedBytes += bytes
    this.draining ??= this.drain().finally(() => {
      this.draining = null
    })
  }

  /** Resolves once every line queued so far has been written (or dropped). */
  async flush(): Promise<void> {
    while (this.draining) await this.draining
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const lines = this.queue
      this.queue = []
      this.queuedBytes = 0
      // Lines dropped while this append runs are counted after it, in the next note.
      const lost = this.dropped
      const note = lost > 0 ? droppedLine(lost, this.opts.now?.() ?? Date.now()) : ''
      try {
        await this.append(note + lines.join(''))
        this.dropped -= lost
        this.troubled = false
      } catch (error) {
        this.dropped += lines.length
        this.dirReady = false
        if (!this.troubled) {
          this.troubled = true
          this.opts.onTrouble?.(
            `the log file ${this.path} cannot be written (${errorCode(error)}); log lines are dropped until it can`,
          )
        }
      }
    }
  }

  private async append(chunk: string): Promise<void> {
    if (!this.dirReady) {
      await mkdir(this.opts.dir, { recursive: true, mode: 0o700 })
      this.dirReady = true
    }
    const size = await stat(this.path).then(
      (s) => s.size,
      () => 0,
    )
    if (size > 0 && size + Buffer.byteLength(chunk) > this.maxBytes) await this.rotate()
    await appendFile(this.path, chunk, { mode: 0o600 })
  }

  /** tickdesk.log -> .1 -> .2 …; the oldest is overwritten. A missing file is no error. */
  private async rotate(): Promise<void> {
    if (this.files === 1) return truncateFile(this.path)
    for (let i = this.files - 1; i >= 1; i--) {
      const from = i === 1 ? this.path : `${this.path}.${i - 1}`
      await rename(from, `${this.path}.${i}`).catch((e: NodeJS.ErrnoException) => {
        if (e.code !== 'ENOENT') throw e
      })
    }
  }
}

function truncate(line: string, maxBytes: number): string {
  if (Buffer.byteLength(line) <= maxBytes) return line
  // Cut by characters well under the byte limit (UTF-8 is at most 4 bytes a character).
  return `${line.slice(0, Math.floor(maxBytes / 4) - 16)}…[cut]`
}

function droppedLine(count: number, at: number): string {
  return `${JSON.stringify({
    t: new Date(at).toISOString(),
    level: 'warn',
    message: `${count} log line(s) were dropped while the log could not be written`,
  })}\n`
}

function errorCode(error: unknown): string {
  const e = error as NodeJS.ErrnoException | null
  return e?.code ?? e?.message ?? String(error)
}
