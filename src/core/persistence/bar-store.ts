import { copyFile, mkdir, open, rename, stat, truncate } from 'node:fs/promises'
import { join } from 'node:path'
import type { Interval } from '../../shared/quote'
import { diskShares, foldBuiltBars, type FoldMarks } from '../bars/built-bars'
import {
  appendSynced,
  changedFrom,
  markOf,
  parseLine,
  markAt,
  yieldToLoop,
  type Mark,
} from './bar-lines'
import {
  ringSeries,
  type BarRing,
  type CandleBuilder,
  type CandleSeries,
} from '../bars/candle-builder'
import { errnoCode, readTextIfExists } from './atomic-file'
import type { StoreProblem } from './json-store'

/**
 * The bars the app keeps across restarts (built from live prices, core/bars/built-bars.ts, and
 * those a service sent), one folder per data source: `<data dir>/bars/<source>/`. Bars the demo
 * simulator made and bars a real service sent are never mixed, nor two services' bars: a switch
 * from demo to a live service (or back) reads the new source's own folder (source-id.ts).
 *
 *   base.ndjson  one CandleSeries a line: every series as of the last compaction, bounded
 *   log.ndjson   appended at each save: one line per series that changed since the save before,
 *                its bars from the last one saved on (that one may have moved since)
 *
 * A save costs what changed (about 8 bars a symbol every 5 minutes), not every symbol's rings:
 * rewriting the whole cache (1000 symbols x 1000 minutes, 7 MB) took 0.3-1.6 s of the event loop
 * every 5 minutes. Once the log would outgrow the base (and COMPACT_MIN_BARS, about 4 MB), the
 * save rewrites the base from memory instead, a chunk of series at a time, yielding between
 * chunks, and empties the log; so does the first save of a source, bounded (diskShares).
 *
 * Reading: base, then the log in order; a later line's bar replaces an earlier one with the same
 * open time. Crash points: a line cut by a crash is unreadable and skipped (the save before it is
 * whole), and cut off the log before the next append; a compaction renames its fsynced temp file
 * over the base before emptying the log, so a crash between the two replays the log onto the new
 * base, which gives the same bars again. A damaged line anywhere else is reported and its file
 * copied aside before anything is rewritten.
 */
export const COMPACT_MIN_BARS = 50_000
/** Series encoded between two yields of a compaction. */
const CHUNK = 50

export interface BarSaveReport {
  series: number
  bytes: number
  compacted: boolean
}

export class BarStore {
  private readonly marks = new Map<string, Mark>()
  private readonly folds: FoldMarks = new Map()
  private baseBars = 0
  private logBars = 0
  /** Bytes of the log up to its last whole line, when a crash left a cut one after it. */
  private cutLogAt: number | null = null
  private loaded = false

  private readonly now: () => number
  private readonly compactMinBars: number

  constructor(
    readonly dir: string,
    opts: {
      /** Stamps the name of a damaged file copied aside. */
      now?: () => number
      /** The log is compacted once it would hold more bars than this and the base. */
      compactMinBars?: number
    } = {},
  ) {
    this.now = opts.now ?? Date.now
    this.compactMinBars = opts.compactMinBars ?? COMPACT_MIN_BARS
  }

  private get basePath(): string {
    return join(this.dir, 'base.ndjson')
  }

  private get logPath(): string {
    return join(this.dir, 'log.ndjson')
  }

  /** The series saved for this source (none for a source never saved), and any damage found. */
  async load(): Promise<{ series: CandleSeries[]; problem: StoreProblem | null }> {
    const bars = new Map<
      string,
      { key: string; interval: Interval; byTime: Map<number, number[]> }
    >()
    let damaged = 0
    const moved: string[] = []
    const read = async (path: string, isLog: boolean): Promise<number> => {
      const text = (await readTextIfExists(path)) ?? ''
      const lines = text.split('\n')
      const tail = lines.pop() ?? ''
      // A log's line without its newline is a save a crash cut short; a base is renamed into
      // place whole, so its last line is read like any other (and counted damaged if it is).
      if (isLog && tail !== '') this.cutLogAt = Buffer.byteLength(text) - Buffer.byteLength(tail)
      if (!isLog && tail !== '') lines.push(tail)
      let bad = 0
      let count = 0
      for (const line of lines) {
        const s = parseLine(line)
        if (s === null) {
          bad++
          continue
        }
        const id = `${s.key}|${s.interval}`
        let entry = bars.get(id)
        if (entry === undefined) {
          entry = { key: s.key, interval: s.interval, byTime: new Map() }
          bars.set(id, entry)
        }
        count += s.t.length
        for (let i = 0; i < s.t.length; i++)
          entry.byTime.set(s.t[i] as number, [s.o[i], s.h[i], s.l[i], s.c[i], s.v[i]] as number[])
      }
      if (bad > 0) {
        damaged += bad
        const aside = `${path}.damaged-${this.now()}`
        await copyFile(path, aside).then(
          () => moved.push(aside),
          () => undefined,
        )
      }
      return count
    }
    this.baseBars = await read(this.basePath, false)
    this.logBars = await read(this.logPath, true)
    const series: CandleSeries[] = []
    for (const { key, interval, byTime } of bars.values()) {
      const s: CandleSeries = { key, interval, t: [], o: [], h: [], l: [], c: [], v: [] }
      for (const t of [...byTime.keys()].sort((a, b) => a - b)) {
        const [o, h, l, c, v] = byTime.get(t) as number[]
        s.t.push(t)
        s.o.push(o as number)
        s.h.push(h as number)
        s.l.push(l as number)
        s.c.push(c as number)
        s.v.push(v as number)
      }
      series.push(s)
      // What the disk holds now: the first save after a restart writes only what moved since.
      this.marks.set(`${key}|${interval}`, markAt(s, s.t[0] as number, s.t.length - 1))
    }
    this.loaded = true
    const problem: StoreProblem | null =
      damaged === 0
        ? null
        : {
            code: 'STORAGE_CORRUPT',
            message: `${damaged} damaged line${damaged === 1 ? '' : 's'} in the saved bars (${this.dir}) were skipped; the rest were read${moved.length ? ` and the damaged file copied to ${moved.join(', ')}` : ''}.`,
            movedTo: moved[0] ?? '',
          }
    return { series, problem }
  }

  /**
   * Folds the newest built minutes into their hours and days, then appends the series that
   * changed since the last save; compacts once the log outgrows the base. Resolves once on disk.
   */
  async save(candles: CandleBuilder, cap?: number): Promise<BarSaveReport> {
    if (!this.loaded) await this.load()
    const keys = [...candles.keys()]
    for (let at = 0; at < keys.length; at += CHUNK * 4) {
      foldBuiltBars(candles, this.folds, keys.slice(at, at + CHUNK * 4))
      await yieldToLoop()
    }
    let bars = 0
    let series = 0
    for (const [key, interval, ring] of candles.rings()) {
      const from = changedFrom(ring, this.marks.get(`${key}|${interval}`))
      if (from >= 0) [bars, series] = [bars + ring.count - from, series + 1]
    }
    // What would outgrow the base (a source's first save, a service's history) makes a new base.
    if (this.logBars + bars > Math.max(this.compactMinBars, this.baseBars)) {
      await this.compact(candles, cap)
      return { series, bytes: (await this.sizes()).base, compacted: true }
    }
    if (series === 0) return { series: 0, bytes: 0, compacted: false }
    const pieces: string[] = []
    const next: Array<[string, Mark]> = []
    let n = 0
    for (const [key, interval, ring] of [...candles.rings()]) {
      const id = `${key}|${interval}`
      const from = changedFrom(ring, this.marks.get(id))
      if (from < 0) continue
      pieces.push(JSON.stringify(ringSeries(key, interval, ring, from, ring.count)))
      next.push([id, markOf(ring)])
      if (++n % CHUNK === 0) await yieldToLoop()
    }
    const text = `${pieces.join('\n')}\n`
    await mkdir(this.dir, { recursive: true, mode: 0o700 })
    if (this.cutLogAt !== null) {
      await truncate(this.logPath, this.cutLogAt)
      this.cutLogAt = null
    }
    await appendSynced(this.logPath, text)
    this.logBars += bars
    for (const [id, mark] of next) this.marks.set(id, mark)
    return { series: next.length, bytes: Buffer.byteLength(text), compacted: false }
  }

  /** Rewrites the base from memory (bounded: diskShares), a chunk at a time, and empties the log. */
  async compact(candles: CandleBuilder, cap?: number): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 })
    const rings = [...candles.rings()]
    const keep = diskShares(
      rings.map(([, interval, ring]) => ({ interval, bars: ring.count })),
      cap,
    )
    const tmp = `${this.basePath}.tmp`
    const file = await open(tmp, 'w', 0o600)
    let bars = 0
    try {
      for (let at = 0; at < rings.length; at += CHUNK) {
        let text = ''
        for (let i = at; i < Math.min(rings.length, at + CHUNK); i++) {
          const [key, interval, ring] = rings[i] as [string, Interval, BarRing]
          const n = keep[i] ?? 0
          this.marks.set(`${key}|${interval}`, markOf(ring))
          bars += n
          if (n > 0)
            text += `${JSON.stringify(ringSeries(key, interval, ring, ring.count - n, ring.count))}\n`
        }
        await file.write(text)
        await yieldToLoop()
      }
      await file.datasync()
    } finally {
      await file.close()
    }
    await rename(tmp, this.basePath)
    await truncate(this.logPath).catch((e: unknown) => {
      if (errnoCode(e) !== 'ENOENT') throw e
    })
    this.baseBars = bars
    this.logBars = 0
    this.cutLogAt = null
  }

  /** Bytes on disk now (base and log), for the bench and the docs. */
  async sizes(): Promise<{ base: number; log: number }> {
    const size = (p: string): Promise<number> =>
      stat(p).then(
        (s) => s.size,
        () => 0,
      )
    return { base: await size(this.basePath), log: await size(this.logPath) }
  }
}
