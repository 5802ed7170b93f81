import { join } from 'node:path'
import type { CandleBuilder } from '../../core/bars/candle-builder'
import { BarStore, type BarSaveReport } from '../../core/persistence/bar-store'
import { feedSourceId } from '../../core/persistence/source-id'
import type { StoreProblem } from '../../core/persistence/json-store'

/** Where a source's bars live in the data folder. */
export function barsDir(dataDir: string, source: { demo: boolean; baseUrl: string }): string {
  return join(dataDir, 'bars', feedSourceId(source))
}

/**
 * The running engine's bars and the folder of the source they came from (persistence/bar-store.ts).
 * Each engine the app starts is handed over with its source: the one before writes what it built
 * to its own source's folder first, then the new one reads its source's bars. So switching from
 * the demo to a live service (or between services) never writes demo bars over a service's or
 * shows a service's chart with the simulator's history, and switching back finds each as it was.
 * Every disk step runs in order on one chain; a failed step rejects (the caller tells it) and the
 * next one runs all the same.
 */
export class BarKeeper {
  private current: { candles: CandleBuilder; store: BarStore } | null = null
  private chain: Promise<unknown> = Promise.resolve()

  constructor(
    private readonly opts: {
      dataDir: string
      /** A damaged bars file found on reading (copied aside; the rest was read). */
      note: (problem: StoreProblem) => void
    },
  ) {}

  /**
   * A new engine on `source`: the previous one's bars are saved to their source, then these read.
   * `candles` null: a feed that keeps no bars (held: it never runs), so nothing is read or written.
   */
  use(candles: CandleBuilder | null, source: { demo: boolean; baseUrl: string }): Promise<void> {
    const previous = this.current
    const store = new BarStore(barsDir(this.opts.dataDir, source))
    this.current = candles === null ? null : { candles, store }
    return this.run(async () => {
      if (previous) await previous.store.save(previous.candles)
      if (candles === null) return
      const { series, problem } = await store.load()
      if (problem) this.opts.note(problem)
      candles.import(series)
    })
  }

  /** What changed since the last save, on disk (a compaction now and then). */
  save(): Promise<BarSaveReport | undefined> {
    const now = this.current
    return this.run(() => (now ? now.store.save(now.candles) : Promise.resolve(undefined)))
  }

  /** Resolves once every disk step asked for so far has run (a close waits for a switch's). */
  settled(): Promise<void> {
    return this.chain.then(() => undefined)
  }

  private run<T>(step: () => Promise<T>): Promise<T> {
    const next = this.chain.then(step)
    this.chain = next.catch(() => undefined)
    return next
  }
}
