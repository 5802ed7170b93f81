import { rename, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { z } from 'zod'
import { systemClock, type Clock } from '../clock'
import { TickdeskError } from '../errors'
import {
  fencedWriter,
  readTextIfExists,
  removeOrphanedTemps,
  writeFileAtomic,
  type AtomicWriter,
} from './atomic-file'
import type { Fence } from './fence'
import { ReadGate } from './read-gate'

/**
 * One JSON file in the data dir, typed by a zod schema and versioned:
 *   <name>.json      {"version": N, "data": …}, the current value
 *   <name>.bak.json  the previous good version, rewritten before each save
 *   <name>.corrupt-<timestamp>.json  a damaged file, moved aside on load, never silently dropped
 *
 * load():  current file good (after migrations vK -> vK+1 … -> N)  -> its value
 *          missing                                                  -> defaults, no problem
 *          damaged (bad JSON, truncated, unknown version, schema)   -> moved aside, then the .bak
 *                                                                      if good (and written back),
 *                                                                      else defaults; reported
 * save():  validates, copies the last good text to .bak, writes the new text atomically; writes
 *          nothing when the file already holds that text. Saves are queued so the .bak/current
 *          pair is never interleaved.
 */

/** `text` read as JSON the schema accepts, or null when it is not JSON or not of that shape. */
export function parseJsonAs<T>(schema: z.ZodType<T>, text: string): T | null {
  try {
    const parsed = schema.safeParse(JSON.parse(text))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

export interface StoreProblem {
  code: 'STORAGE_CORRUPT'
  message: string
  /** Where the damaged file now is (absolute path); '' if it could not be moved. */
  movedTo: string
}

export interface LoadResult<T> {
  value: T
  problem: StoreProblem | null
}

/** Turns the data of version `from` into the data of version `from + 1`. May throw. */
export type Migration = (data: unknown) => unknown

export interface JsonStoreOptions<T> {
  dir: string
  /** File stem: 'settings' -> settings.json. */
  name: string
  schema: z.ZodType<T>
  version: number
  /** Keyed by the version they migrate from. */
  migrations?: Record<number, Migration>
  defaults: () => T
  /**
   * What the schema would refuse in a value about to be saved, read in place (null: nothing),
   * instead of parsing it with the schema, which copies it: for a large store saved often (the
   * quote cache). Loads always parse with the schema.
   */
  saveCheck?: (value: T) => string | null
  clock?: Clock
  writer?: AtomicWriter
  /**
   * What of the previous version the backup may keep, given the version being saved: by default
   * all of it. The webhooks store keeps only the webhooks still there, so a removed webhook's URL
   * (a bearer secret) does not live on in the .bak.
   */
  backupKeeps?: (previous: T, next: T) => T
}

type Decoded<T> = { ok: true; value: T } | { ok: false; reason: string }

export class JsonStore<T> {
  readonly path: string
  readonly backupPath: string
  private readonly opts: JsonStoreOptions<T>
  private readonly clock: Clock
  /** Text of the last version known good on disk; what the next save backs up. */
  private lastGood: string | null = null
  private loaded = false
  private queue: Promise<void> = Promise.resolve()
  /** Saves queued or running: while any is, the file on disk may be our own half-way state. */
  private saving = 0
  /** Whether outsideChange() need read the file at all (a stat that says it was not written). */
  private readonly gate: ReadGate

  constructor(opts: JsonStoreOptions<T>) {
    this.opts = opts
    this.clock = opts.clock ?? systemClock
    this.path = join(opts.dir, `${opts.name}.json`)
    this.backupPath = join(opts.dir, `${opts.name}.bak.json`)
    this.gate = new ReadGate(this.path)
  }

  /** load()'s value; its problem (a damaged file, moved aside) is handed to `report`. */
  async loadReporting(report: (problem: StoreProblem | null) => void): Promise<T> {
    const { value, problem } = await this.load()
    report(problem)
    return value
  }

  /** Never throws: whatever is on disk, the result holds a valid value. */
  async load(): Promise<LoadResult<T>> {
    this.loaded = true
    this.gate.forget()
    await removeOrphanedTemps(this.path)
    let text: string | null
    try {
      text = await readTextIfExists(this.path)
    } catch (e) {
      text = `unreadable: ${String(e)}`
    }
    if (text === null) return { value: this.opts.defaults(), problem: null }
    const current = this.decode(text)
    if (current.ok) {
      this.lastGood = text
      return { value: current.value, problem: null }
    }

    const movedTo = await this.moveAside()
    const file = `${this.opts.name}.json`
    const where = movedTo === '' ? 'it could not be moved aside' : `it was moved to ${movedTo}`
    const backup = await this.readBackup()
    if (backup !== null) {
      await this.write(this.encode(backup)).catch(() => undefined)
      return {
        value: backup,
        problem: {
          code: 'STORAGE_CORRUPT',
          message: `${file} was damaged (${current.reason}); ${where}. Restored the last good version.`,
          movedTo,
        },
      }
    }
    return {
      value: this.opts.defaults(),
      problem: {
        code: 'STORAGE_CORRUPT',
        message: `${file} was damaged (${current.reason}); ${where}. Started from defaults.`,
        movedTo,
      },
    }
  }

  /**
   * Validates and writes; rejects with TickdeskError (INVALID_INPUT, DISK_FULL, STORAGE_WRITE, and
   * LEASE_LOST when a `fence` is given and refuses: then neither the file nor its backup moved).
   */
  save(value: T, fence?: Fence): Promise<void> {
    const checked = this.checkForSave(value)
    if (!checked.ok) {
      return Promise.reject(
        new TickdeskError({
          code: 'INVALID_INPUT',
          message: `Refusing to save an invalid ${this.opts.name}: ${checked.reason}`,
        }),
      )
    }
    const text = this.encode(checked.value)
    this.saving++
    const run = this.queue
      .then(() => this.write(text, checked.value, fence))
      .finally(() => this.saving--)
    this.queue = run.catch(() => undefined)
    return run
  }

  private checkForSave(value: T): Decoded<T> {
    if (this.opts.saveCheck !== undefined) {
      const problem = this.opts.saveCheck(value)
      return problem === null ? { ok: true, value } : { ok: false, reason: problem }
    }
    const parsed = this.opts.schema.safeParse(value)
    return parsed.success
      ? { ok: true, value: parsed.data }
      : { ok: false, reason: firstIssue(parsed.error) }
  }

  /**
   * The file's value when another writer (the CLI, a second Tickdesk) replaced it since this
   * store last read or wrote it; null when it did not, while a save of ours is under way, or when
   * the new text does not decode (a later load() moves that aside; a check never moves or
   * rewrites anything).
   */
  async outsideChange(): Promise<T | null> {
    if (this.saving > 0 || !this.loaded) return null
    const look = await this.gate.look()
    if (look.unchanged) return null
    const text = await readTextIfExists(this.path).catch(() => undefined)
    // A save of ours may have begun meanwhile; a read that failed proves nothing of the stamp.
    if (this.saving > 0 || text === undefined) return null
    this.gate.read(look)
    if (text === null || text === this.lastGood) return null
    const decoded = this.decode(text)
    if (!decoded.ok) return null
    this.lastGood = text
    return decoded.value
  }

  private async write(text: string, next?: T, fence?: Fence): Promise<void> {
    if (!this.loaded) await this.adoptCurrentFile()
    // The file holds this very text already: writing it again would only cost the disk a write
    // and a flush (the alert states, saved each minute, are the same all day on a desk with no
    // alerts). Read, not trusted from memory: another writer may have replaced it. A fenced save
    // still refuses once the lease is lost, as a write would.
    if (text === this.lastGood && (await readTextIfExists(this.path).catch(() => null)) === text) {
      fence?.check()
      return
    }
    const writer = fence === undefined ? this.opts.writer : fencedWriter(fence)
    if (this.lastGood !== null && this.lastGood !== text) {
      await writeFileAtomic(this.backupPath, this.backupText(this.lastGood, next), writer)
    }
    this.gate.forget()
    await writeFileAtomic(this.path, text, writer)
    this.lastGood = text
  }

  /**
   * The file's value as it is now, read without a side effect (nothing moved aside, restored or
   * removed): for a process that shows another one's file. Null when missing or not decodable.
   */
  async peek(): Promise<T | null> {
    const text = await readTextIfExists(this.path).catch(() => null)
    if (text === null) return null
    const decoded = this.decode(text)
    return decoded.ok ? decoded.value : null
  }

  private backupText(previous: string, next: T | undefined): string {
    const keeps = this.opts.backupKeeps
    if (keeps === undefined || next === undefined) return previous
    const decoded = this.decode(previous)
    return decoded.ok ? this.encode(keeps(decoded.value, next)) : previous
  }

  /** save() before load(): back up the file on disk only if it is a good version. */
  private async adoptCurrentFile(): Promise<void> {
    this.loaded = true
    const text = await readTextIfExists(this.path).catch(() => null)
    if (text !== null && this.decode(text).ok) this.lastGood = text
  }

  private encode(value: T): string {
    return JSON.stringify({ version: this.opts.version, data: value })
  }

  private decode(text: string): Decoded<T> {
    let raw: unknown
    try {
      raw = JSON.parse(text)
    } catch {
      return {
        ok: false,
        reason: text.trim() === '' ? 'empty file' : 'not valid JSON, maybe truncated',
      }
    }
    if (typeof raw !== 'object' || raw === null || !('version' in raw) || !('data' in raw)) {
      return { ok: false, reason: 'not a Tickdesk data file' }
    }
    const version = raw.version
    if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
      return { ok: false, reason: 'bad version' }
    }
    if (version > this.opts.version) {
      return { ok: false, reason: `written by a newer Tickdesk (format v${version})` }
    }
    let data: unknown = raw.data
    for (let v = version; v < this.opts.version; v++) {
      const migrate = this.opts.migrations?.[v]
      if (migrate === undefined) return { ok: false, reason: `no migration from format v${v}` }
      try {
        data = migrate(data)
      } catch (e) {
        return { ok: false, reason: `migration from format v${v} failed: ${String(e)}` }
      }
    }
    const parsed = this.opts.schema.safeParse(data)
    if (!parsed.success)
      return { ok: false, reason: `unexpected content: ${firstIssue(parsed.error)}` }
    return { ok: true, value: parsed.data }
  }

  private async readBackup(): Promise<T | null> {
    const text = await readTextIfExists(this.backupPath).catch(() => null)
    if (text === null) return null
    const decoded = this.decode(text)
    return decoded.ok ? decoded.value : null
  }

  private async moveAside(): Promise<string> {
    const stamp = new Date(this.clock.now()).toISOString().replace(/[:.]/g, '-')
    for (let n = 0; n < 100; n++) {
      const suffix = n === 0 ? '' : `-${n}`
      const target = join(this.opts.dir, `${this.opts.name}.corrupt-${stamp}${suffix}.json`)
      const taken = await stat(target).then(
        () => true,
        () => false,
      )
      if (taken) continue
      try {
        await rename(this.path, target)
        return target
      } catch {
        return ''
      }
    }
    return ''
  }
}

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0]
  if (issue === undefined) return 'invalid'
  const path = issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''
  return `${path}${issue.message}`
}
