import { symbolKey, type Market, type SymbolKey } from '../../shared/markets/market'
import type { FeedPlanner } from './feed-planner'
import type { QuotePoller } from '../poll/quote-poller'
import type { StreamClient } from '../stream/stream-client'
import type { WatchedSymbols } from '../engine/watched-symbols'

/**
 * Puts the FeedPlanner's plan into effect: the streamed and shadow symbols to the socket's
 * subscriptions, the polled ones (the shadows among them) to the poller, and one REST snapshot
 * for each symbol that starts streaming (the fields pushes may never carry: day high/low,
 * prevClose; and the first REST price its market's stream is checked against: core/trust).
 */
export class FeedPlanApplier {
  private queued = false
  /** Streamed symbols that had their one snapshot. */
  private readonly snapshotted = new Set<SymbolKey>()
  private subscribed = 0

  constructor(
    private readonly o: {
      planner: FeedPlanner
      watched: WatchedSymbols
      stream: StreamClient
      poller: Pick<QuotePoller, 'setSymbols' | 'pollNow' | 'answeredLately'>
      /** After each application (the engine derives its status again). */
      onApplied: () => void
    },
  ) {}

  /** Symbols subscribed on the stream by the last plan applied. */
  get streamSubs(): number {
    return this.subscribed
  }

  /**
   * Watching a list watches its symbols one by one: planning once per symbol made loading 5000
   * symbols quadratic (2000 took 27 s). Changes in one synchronous run are planned once, at the
   * end of it (a microtask: before any timer, socket or request can see the old plan).
   */
  replanSoon(): void {
    if (this.queued) return
    this.queued = true
    queueMicrotask(() => {
      if (!this.queued) return
      this.replan()
    })
  }

  replan(): void {
    const { planner, stream, poller } = this.o
    this.queued = false
    planner.setWatched(this.o.watched.ordered())
    const { streamed, shadow, polled, background } = planner.plan()
    // A symbol the poller answered a moment ago has the fields a snapshot would bring: no call
    // for it (while a stream name is learned, symbols go from the poll set to a slot and back).
    // Asked before the poll set changes, which forgets what it dropped.
    for (const [market, symbols] of streamed)
      for (const s of symbols) {
        const key = symbolKey(market, s)
        if (!this.snapshotted.has(key) && poller.answeredLately(key)) this.snapshotted.add(key)
      }
    const subscribed = new Map([...streamed].map(([m, set]) => [m, new Set(set)]))
    for (const [market, symbols] of shadow) {
      const set = subscribed.get(market) ?? new Set<string>()
      for (const s of symbols) set.add(s)
      subscribed.set(market, set)
    }
    stream.setSubscriptions(subscribed)
    this.subscribed = [...subscribed.values()].reduce((n, s) => n + s.size, 0)
    poller.setSymbols(polled, background)
    // A symbol that starts streaming on an open socket still needs the fields pushes may never
    // carry (day high/low, prevClose): one snapshot, once.
    if (stream.state() === 'open') {
      const keys = this.streamedKeys().filter((k) => !this.snapshotted.has(k))
      if (keys.length > 0) this.snapshot(keys)
    }
    this.o.onApplied()
  }

  /** One REST snapshot of these streamed symbols now (within budget). */
  snapshot(keys: SymbolKey[]): void {
    for (const k of keys) this.snapshotted.add(k)
    this.o.poller.pollNow(keys)
  }

  /** The symbol had its snapshot another way (a probe's quote). */
  snapshotTaken(key: SymbolKey): void {
    this.snapshotted.add(key)
  }

  /** The symbol is no longer watched: a later watch snapshots it again. */
  forget(key: SymbolKey): void {
    this.snapshotted.delete(key)
  }

  /** The keys the current plan streams (in the markets `keep` passes, when given). */
  streamedKeys(keep?: (market: Market) => boolean): SymbolKey[] {
    const { streamed } = this.o.planner.plan()
    const keys: SymbolKey[] = []
    for (const [market, symbols] of streamed) {
      if (keep && !keep(market)) continue
      for (const s of symbols) keys.push(symbolKey(market, s))
    }
    return keys
  }

  /** The market the current plan streams this symbol in (frames that name no market). */
  marketOfStreamed(symbol: string): Market | null {
    for (const [market, symbols] of this.o.planner.plan().streamed)
      if (symbols.has(symbol)) return market
    return null
  }
}
