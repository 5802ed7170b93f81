import type { AtomicWriter } from '../../core/persistence/atomic-file'
import { JsonStore } from '../../core/persistence/json-store'
import type { EventHub } from '../event-hub'
import type { NoticeBoard } from '../notice-board'
import {
  chartId,
  DrawingsFileSchema,
  MAX_DRAWN_CHARTS,
  type Drawing,
  type DrawingsFile,
  type IntervalFamily,
} from '../../shared/drawings/drawing'
import { TickdeskError } from '../../core/errors'

/**
 * The trader's drawings, in drawings.json in the data folder: an atomic, validated file like the
 * other data files (core/persistence/json-store.ts: written through a temp file and a rename, the
 * previous good version kept as drawings.bak.json, a damaged file moved aside and reported, never
 * silently reset). Read on first use; saved one chart at a time, in order.
 */
export class DrawingBook {
  private readonly store: JsonStore<DrawingsFile>
  private file: Promise<DrawingsFile> | null = null
  /** Saves one after another, each on the file the previous one left (two charts saved at once). */
  private queue: Promise<unknown> = Promise.resolve()

  /**
   * A damaged file is reported on `notices` (moved aside, the last good version restored); each
   * save is told on `hub`, so every page draws the chart's drawings again.
   */
  constructor(
    dir: string,
    private readonly notices: Pick<NoticeBoard, 'warnOfFile'>,
    private readonly hub: Pick<EventHub, 'emit'>,
    writer?: AtomicWriter,
  ) {
    this.store = new JsonStore({
      dir,
      name: 'drawings',
      schema: DrawingsFileSchema,
      version: 1,
      defaults: () => ({ charts: {} }),
      ...(writer ? { writer } : {}),
    })
  }

  /** One chart's drawings, oldest first; none when nothing was drawn on it. */
  async of(key: string, family: IntervalFamily): Promise<Drawing[]> {
    return (await this.read()).charts[chartId(key, family)] ?? []
  }

  /**
   * A chart's drawings as they are now; an empty list forgets the chart. Refused with
   * INVALID_INPUT (nothing saved) when the file would hold more charts than it may.
   */
  save(key: string, family: IntervalFamily, drawings: Drawing[]): Promise<Drawing[]> {
    const run = this.queue.then(() => this.write(key, family, drawings))
    this.queue = run.catch(() => undefined)
    return run
  }

  private async write(
    key: string,
    family: IntervalFamily,
    drawings: Drawing[],
  ): Promise<Drawing[]> {
    const file = await this.read()
    const id = chartId(key, family)
    const charts = { ...file.charts }
    if (drawings.length === 0) delete charts[id]
    else charts[id] = drawings
    if (Object.keys(charts).length > MAX_DRAWN_CHARTS)
      throw new TickdeskError({
        code: 'INVALID_INPUT',
        message: `The drawing was not saved: drawings are kept on at most ${MAX_DRAWN_CHARTS} charts; remove some on charts you no longer use`,
      })
    const next = { charts }
    await this.store.save(next)
    this.file = Promise.resolve(next)
    this.hub.emit({ type: 'drawings', key, family, drawings })
    return drawings
  }

  private read(): Promise<DrawingsFile> {
    this.file ??= this.store.load().then((loaded) => {
      this.notices.warnOfFile(loaded.problem)
      return loaded.value
    })
    return this.file
  }
}
