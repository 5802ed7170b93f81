import type { CandleBuilder } from '../core/bars/candle-builder'
import type { Clock } from '../core/clock'
import { isTickdeskError } from '../core/errors'
import type { JsonStore, LoadResult } from '../core/persistence/json-store'
import { feedSourceId, type FeedSource } from '../core/persistence/source-id'
import { pruneSourceCaches } from '../core/persistence/source-caches'
import type { DataStores } from '../core/persistence/stores'
import { ThrottledSave } from '../core/persistence/throttled-save'
import type { SymbolKey } from '../shared/markets/market'
import type { Quote } from '../shared/quote'
import { BarKeeper } from './feed/bar-keeper'
import { errorText } from './error-text'
import type { NoticeBoard } from './notice-board'

/**
 * The quote cache changes many times a second; the disk sees it at most this often, and always on
 * close. It only fills the grid (marked stale) at the next start, so a crash costing up to this
 * much of it loses nothing a trader relies on; each save validates, backs up and fsyncs the file,
 * which at every 5 s was a steady share of the host's CPU at rest.
 */
export const QUOTE_CACHE_EVERY_MS = 30_000
/**
 * The bars the app built (core/bars/built-bars.ts) reach the disk at most this often while prices
 * move, and on close: a crash costs at most this much of a chart's history. A save appends only
 * what changed (persistence/bar-store.ts).
 */
export const BAR_CACHE_EVERY_MS = 5 * 60_000
/**
 * When the app's files are written. The trader's own changes (lists, settings) are saved at once;
 * the quote cache at most every QUOTE_CACHE_EVERY_MS while prices move (through ThrottledSave,
 * which reads the newest value when it writes) and once more on close(). Alert rules, states and
 * history are the alert loop's (src/app/alerts/alert-loop.ts). A failed save keeps everything in memory
 * and says why in a notice; the next save tries again.
 */
/** What the scheduler keeps of a running engine: its bars and its last prices. */
export interface CachedFeed {
  candles: CandleBuilder
  quotes: { all(): Quote[] }
  seedFromCache(quotes: Quote[]): void
}

interface QuoteCacheWrite {
  store: JsonStore<Quote[]>
  quotes: Quote[]
}

const noValue = (): null => null

export class SaveScheduler {
  private readonly quoteCache: ThrottledSave<QuoteCacheWrite | null>
  /** The running engine and the quote cache file of its source (stores.quotesOf). */
  private running: { feed: CachedFeed; store: JsonStore<Quote[]>; id: string } | null = null
  /** The quote cache read a start made before its first engine (startCache), kept to seed it. */
  private startRead: { id: string; read: Promise<LoadResult<Quote[]>> } | null = null
  private readonly barCache: ThrottledSave<null>
  /** The running engine's bars and the folder of their source (bar-keeper.ts). */
  private readonly bars: BarKeeper

  constructor(
    private readonly opts: {
      stores: DataStores
      clock: Clock
      notices: Pick<NoticeBoard, 'add'>
      /** Which cached quotes still belong in the rows (symbols on a watchlist or held). */
      keep: (key: SymbolKey) => boolean
    },
  ) {
    const onError = (e: unknown): void => this.report(e)
    const { stores, clock } = opts
    this.bars = new BarKeeper({
      dataDir: stores.dir,
      note: (problem) => opts.notices.add('warning', problem.code, problem.message),
    })
    this.quoteCache = new ThrottledSave({
      clock,
      intervalMs: QUOTE_CACHE_EVERY_MS,
      // The cache was read at start: the first write waits the interval, off the busy start.
      freshAtStart: true,
      save: async (write) => {
        await write?.store.save(write.quotes)
      },
      onError,
    })
    this.barCache = new ThrottledSave({
      clock,
      intervalMs: BAR_CACHE_EVERY_MS,
      freshAtStart: true,
      save: async () => {
        await this.bars.save()
      },
      onError,
    })
  }

  /** Saves now; resolves once written, or once the failure is told. Never rejects. */
  async now(save: () => Promise<void>): Promise<void> {
    try {
      await save()
    } catch (e) {
      this.report(e)
    }
  }

  /**
   * A new engine on `source`. The engine before keeps its bars and last prices under its own
   * source; then this source's are read into the new one (the rows show them as cached until
   * its first prices). Demo and live prices never mix, in the rows, the charts or on disk.
   * A held feed (the key withheld from `source`) never ran: nothing is kept on disk for it.
   * Other sources' caches are pruned to the few used last (source-caches.ts).
   */
  useSource(feed: CachedFeed, source: FeedSource, held = false): void {
    const previous = this.running
    const id = feedSourceId(source)
    if (held) {
      this.running = null
      void this.now(async () => {
        await this.bars.use(null, source)
        if (previous) await previous.store.save(previous.feed.quotes.all())
      })
      return
    }
    const store = this.opts.stores.quotesOf(source)
    const startRead = this.startRead?.id === id ? this.startRead.read : null
    this.startRead = null
    this.running = { feed, store, id }
    void this.now(() => this.bars.use(feed.candles, source))
    void this.now(() => this.bars.settled().then(() => this.prune(id)))
    // The same source's engine again (a key or plan change): the feed switcher carried the
    // rows' prices over, and the next save writes them to the same file.
    if (previous?.id === id) return
    void this.now(async () => {
      if (previous) await previous.store.save(previous.feed.quotes.all())
      // A start's read was told already (startCache): only a fresh read reports a damaged file.
      const cached = (await startRead) ?? this.told(await store.load())
      feed.seedFromCache(cached.value.filter((q) => this.opts.keep(q.key)))
    })
  }

  /**
   * The quote cache of `source` as a start reads it before its first engine runs: when each
   * symbol was last priced (alert levels crossed while nothing ran fire "while you were away")
   * and the host's cached picture of the list. The first engine on that source is then seeded
   * from this same read.
   */
  async startCache(source: FeedSource): Promise<Map<SymbolKey, Quote>> {
    const read = this.opts.stores
      .quotesOf(source)
      .load()
      .then((r) => this.told(r))
    this.startRead = { id: feedSourceId(source), read }
    return new Map((await read).value.map((q) => [q.key, q]))
  }

  /** Every source's cache but this one's, demo mode's and the few used last goes. */
  private async prune(id: string): Promise<void> {
    await pruneSourceCaches(this.opts.stores.dir, [id, feedSourceId({ demo: true, baseUrl: '' })])
  }

  /** A damaged cache file (moved aside by the store) becomes a notice. */
  private told(loaded: LoadResult<Quote[]>): LoadResult<Quote[]> {
    if (loaded.problem) {
      this.opts.notices.add('warning', loaded.problem.code, loaded.problem.message)
    }
    return loaded
  }

  /** New prices: the quote cache and the bars built from them are due a save. */
  quotesChanged(): void {
    this.quoteCache.request(this.quoteSnapshot)
    this.barCache.request(noValue)
  }

  /** Made once: quotesChanged() runs every tick, and a closure a tick is garbage a tick. */
  private readonly quoteSnapshot = (): QuoteCacheWrite | null => {
    const now = this.running
    return now && { store: now.store, quotes: now.feed.quotes.all() }
  }

  /** Shutdown: the quote cache and the bars once more, whether or not a save was due. */
  async close(): Promise<void> {
    this.quotesChanged()
    await Promise.all([this.quoteCache.flush(), this.barCache.flush()])
    // A switch's save and read may still run: the data folder is ours until they are done.
    await this.bars.settled()
  }

  private report(e: unknown): void {
    const code = isTickdeskError(e) ? String(e.code) : 'STORAGE_ERROR'
    const message =
      code === 'DISK_FULL'
        ? 'The disk is full: your latest changes are kept in memory and will be saved when space is free.'
        : `Could not save your changes (${errorText(e)}); they are kept in memory.`
    this.opts.notices.add('error', code, message)
  }
}
