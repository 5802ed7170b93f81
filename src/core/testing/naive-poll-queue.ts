// The PollQueue as it was before nextBatch stopped sorting every symbol on every tick (commit 266747a).
// Kept verbatim as the oracle poll-queue.spec.ts compares the fast queue's batches with.
import { parseSymbolKey, symbolKey, type Market, type SymbolKey } from '../../shared/market'
import {
  AGRI_FALLBACK,
  MAX_SYMBOLS_PER_CALL,
  quoteRoute,
  type EndpointFamily,
  type Route,
} from '../market-routes'
import type { Batch, BatchMember } from '../poll-batch'
import type { PollVerdicts, Verdict } from '../poll-verdicts'
import { nextPollAt } from '../session-pacing'

import { BACKGROUND_POLL_MS, KLINE_FALLBACK_MS, SLOW_POLL_MS, type Tracked } from '../poll-queue'

/**
 * What the QuotePoller owes the service's symbols, and which batch goes next. Three kinds of
 * work, in this order: parts of a refused batch (pending), symbols someone asked to have polled
 * now (urgent: snapshots, also of streamed symbols, held in oneShot), then the poll set (tracked)
 * by staleness. A symbol is never in two requests at once, never asked while a verdict or a block
 * stands (PollVerdicts), and a symbol waiting in a pending part is asked only there.
 */
export class NaivePollQueue {
  tracked = new Map<SymbolKey, Tracked>()
  /** Symbols polled once on request but not part of the poll set (streamed ones after a gap). */
  readonly oneShot = new Map<SymbolKey, Tracked>()
  /** Symbols owed a poll as soon as the budget allows, and since when. */
  readonly urgent = new Map<SymbolKey, number>()
  private pending: Batch[] = []
  private readonly inFlight = new Set<SymbolKey>()
  /** Per endpoint family: the most symbols one request may carry (learned; default 50). */
  readonly batchCap = new Map<EndpointFamily, number>()
  /** Symbols asked at most every SLOW_POLL_MS. */
  slow: ReadonlySet<SymbolKey> = new Set()

  constructor(
    private readonly verdicts: PollVerdicts,
    private readonly minIntervalMs: number,
  ) {}

  /**
   * Replaces the poll set; returns the symbols new to it. Malformed keys are ignored. Those in
   * `background` are polled at the background pace.
   */
  setSymbols(keys: Iterable<SymbolKey>, background: ReadonlySet<SymbolKey> = NONE): Tracked[] {
    const next = new Map<SymbolKey, Tracked>()
    const added: Tracked[] = []
    for (const raw of keys) {
      const ref = parseSymbolKey(raw)
      if (!ref) continue
      const key = symbolKey(ref.market, ref.symbol)
      const known = this.tracked.get(key) ?? this.oneShot.get(key)
      const t = known ?? fresh(key, ref.market, ref.symbol)
      t.background = background.has(key)
      next.set(key, t)
      if (!known) added.push(t)
    }
    this.tracked = next
    return added
  }

  /** Marks these symbols (default: the poll set) owed now; unknown ones are polled once. */
  pollNow(keys: SymbolKey[] | undefined, now: number): void {
    for (const raw of keys ?? [...this.tracked.keys()]) {
      const ref = parseSymbolKey(raw)
      if (!ref) continue
      const key = symbolKey(ref.market, ref.symbol)
      if (!this.tracked.has(key) && !this.oneShot.has(key))
        this.oneShot.set(key, fresh(key, ref.market, ref.symbol))
      this.owe(key, now)
    }
  }

  owe(key: SymbolKey, now: number): void {
    if (!this.urgent.has(key)) this.urgent.set(key, now)
  }

  lookup(key: SymbolKey): Tracked | undefined {
    return this.tracked.get(key) ?? this.oneShot.get(key)
  }

  /** Every symbol the queue knows: the poll set and the one-shot snapshots. */
  all(): Tracked[] {
    return [...this.tracked.values(), ...this.oneShot.values()]
  }

  members(batch: Batch): BatchMember[] {
    const out: BatchMember[] = []
    for (const key of batch.keys) {
      const t = this.lookup(key)
      if (t) out.push({ ...t, proven: this.verdicts.isProven(key) })
    }
    return out
  }

  /** Parts of a refused batch, asked before anything else. */
  queue(parts: Batch[]): boolean {
    if (parts.length === 0) return false
    this.pending.unshift(...parts)
    return true
  }

  /** Refused batches waiting to be split further, or a snapshot someone asked for. */
  hasUrgentWork(now: number): boolean {
    if (this.pending.length > 0) return true
    for (const key of this.urgent.keys()) {
      const t = this.lookup(key)
      if (t && this.eligible(t, now)) return true
      // Refused or blocked meanwhile: the snapshot is not owed any more.
      if (!t || !this.inFlight.has(key)) this.urgent.delete(key)
    }
    return false
  }

  nextBatch(now: number): Batch | null {
    while (this.pending.length > 0) {
      const part = this.pending.shift() as Batch
      const keys = part.keys.filter((k) => {
        const t = this.lookup(k)
        return t !== undefined && this.eligible(t, now) && this.routeOf(t, now).kline === part.kline
      })
      if (keys.length > 0) return { ...part, keys }
    }
    const owed: Tracked[] = []
    for (const key of this.urgent.keys()) {
      const t = this.lookup(key)
      if (t && this.eligible(t, now) && !this.inPending(key)) owed.push(t)
    }
    const due: Tracked[] = []
    for (const t of this.tracked.values()) {
      if (this.urgent.has(t.key) || !this.eligible(t, now) || this.inPending(t.key)) continue
      if (now >= this.dueAt(t, now)) due.push(t)
    }
    // Most overdue for its own pace first: when the budget is short, foreground and background
    // slow down together and background stays the slower, never starved.
    const lateness = (t: Tracked): number => (now - t.lastAttemptAt) / this.minIntervalFor(t, now)
    const later = (a: Tracked, b: Tracked): number => {
      const d = lateness(b) - lateness(a)
      return Number.isNaN(d) ? 0 : d // both never asked
    }
    const ordered = [...owed, ...due.sort(later)]
    const head = ordered[0]
    if (!head) return null
    const route = this.routeOf(head, now)
    if (route.kline) return { ...route, keys: [head.key] }
    const cap = this.batchCap.get(route.route.family) ?? MAX_SYMBOLS_PER_CALL
    const keys = ordered
      .filter((t) => {
        const r = this.routeOf(t, now)
        return !r.kline && r.route.family === route.route.family
      })
      .slice(0, cap)
      .map((t) => t.key)
    return { ...route, keys }
  }

  /** When the next tracked symbol falls due (Infinity when none can). */
  nextDueAt(now: number): number {
    let at = Infinity
    for (const t of this.tracked.values()) {
      if (this.eligible(t, now)) at = Math.min(at, this.dueAt(t, now))
    }
    return at
  }

  /** The batch is on the wire: its symbols are in flight and no longer owed. */
  begin(batch: Batch, now: number): void {
    for (const key of batch.keys) {
      this.inFlight.add(key)
      this.urgent.delete(key)
      const t = this.lookup(key)
      if (t) t.lastAttemptAt = now
    }
  }

  /** The batch is done; a snapshot owed to a streamed symbol survives its batch being split. */
  end(batch: Batch, split: boolean): void {
    for (const key of batch.keys) {
      this.inFlight.delete(key)
      if (!split) this.oneShot.delete(key)
    }
  }

  /** The service answered for this symbol in a request sent at `sentAt`. */
  answered(t: Tracked, sentAt: number, now: number): void {
    t.lastPolledAt = now
    // An answer to a request sent after the snapshot was asked for is that snapshot.
    if ((this.urgent.get(t.key) ?? Infinity) <= sentAt) this.urgent.delete(t.key)
    this.verdicts.answered(t.key)
  }

  routeOf(t: Tracked, now: number): { route: Route; kline: boolean } {
    if (t.market === 'agri' && this.verdicts.viaKline(t.key, now))
      return { route: AGRI_FALLBACK, kline: true }
    return { route: quoteRoute(t.market), kline: false }
  }

  /** A refusal that stands for this symbol: its own, or its market's on its route. */
  verdictFor(t: Tracked, now: number): Verdict | null {
    return (
      this.verdicts.badVerdict(t.key, now) ??
      this.verdicts.blockOf(this.routeOf(t, now).route.family, t.market, now)
    )
  }

  /**
   * A closed market (session-pacing.ts) is asked every few minutes, and again when it opens; a
   * slow symbol (an FX pair only converting lots) once a minute; a background one (only on a
   * list out of view) at most every BACKGROUND_POLL_MS.
   */
  private dueAt(t: Tracked, now: number): number {
    return nextPollAt(t.market, t.symbol, t.lastAttemptAt, this.minIntervalFor(t, now), now)
  }

  private minIntervalFor(t: Tracked, now: number): number {
    if (this.routeOf(t, now).kline) return KLINE_FALLBACK_MS
    return Math.max(
      this.minIntervalMs,
      t.background ? BACKGROUND_POLL_MS : 0,
      this.slow.has(t.key) ? SLOW_POLL_MS : 0,
    )
  }

  private eligible(t: Tracked, now: number): boolean {
    return !this.inFlight.has(t.key) && this.verdictFor(t, now) === null
  }

  private inPending(key: SymbolKey): boolean {
    return this.pending.some((p) => p.keys.includes(key))
  }
}

const NONE: ReadonlySet<SymbolKey> = new Set()

function fresh(key: SymbolKey, market: Market, symbol: string): Tracked {
  return { key, market, symbol, lastAttemptAt: -Infinity, lastPolledAt: null, background: false }
}
