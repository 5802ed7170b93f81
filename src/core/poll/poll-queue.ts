import { parseSymbolKey, symbolKey, type Market, type SymbolKey } from '../../shared/markets/market'
import {
  AGRI_FALLBACK,
  MAX_SYMBOLS_PER_CALL,
  quoteRoute,
  type EndpointFamily,
  type Route,
} from '../rest/market-routes'
import type { Batch, BatchMember } from './poll-batch'
import type { PollVerdicts, Verdict } from './poll-verdicts'
import { nextPollAt } from './session-pacing'
import {
  BACKGROUND_POLL_MS,
  DueIndex,
  fresh,
  KLINE_FALLBACK_MS,
  rememberedDueAt,
  SLOW_POLL_MS,
  type DueSource,
  type Tracked,
} from './poll-pace'

export { BACKGROUND_POLL_MS, KLINE_FALLBACK_MS, SLOW_POLL_MS, type Tracked } from './poll-pace'

/**
 * What the QuotePoller owes the service's symbols, and which batch goes next. Three kinds of
 * work, in this order: parts of a refused batch (pending), symbols someone asked to have polled
 * now (urgent: snapshots, also of streamed symbols, held in oneShot), then the poll set (tracked)
 * by staleness. A symbol is never in two requests at once, never asked while a verdict or a block
 * stands (PollVerdicts), and a symbol waiting in a pending part is asked only there.
 */
export class PollQueue {
  tracked = new Map<SymbolKey, Tracked>()
  /** Symbols polled once on request but not part of the poll set (streamed ones after a gap). */
  readonly oneShot = new Map<SymbolKey, Tracked>()
  /** Symbols owed a poll as soon as the budget allows, and since when. */
  readonly urgent = new Map<SymbolKey, number>()
  protected pending: Batch[] = []
  protected readonly inFlight = new Set<SymbolKey>()
  /** Per endpoint family: the most symbols one request may carry (learned; default 50). */
  readonly batchCap = new Map<EndpointFamily, number>()
  /** Symbols asked at most every SLOW_POLL_MS. */
  slow: ReadonlySet<SymbolKey> = new Set()
  /** nextBatch's working arrays, kept between calls: the due symbols and their lateness. */
  private readonly dueScratch: Tracked[] = []
  private readonly lateScratch: number[] = []
  /** Poll-set symbols that may be due now, and the others by when they may be (poll-pace.ts). */
  private readonly index = new DueIndex()
  /** dueAt for rememberedDueAt, made once (nothing allocated per ask). */
  private readonly due: DueSource = { dueAt: (t, now) => this.dueAt(t, now) }

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
    // From here no part is pending: no symbol waits in one.
    const owed: Tracked[] = []
    for (const key of this.urgent.keys()) {
      const t = this.lookup(key)
      if (t && this.eligible(t, now)) owed.push(t)
    }
    // Only symbols that may be due are looked at (the rest wait in a heap by when they may be):
    // this runs before every call (~40/s at 5000 symbols on Enterprise). Each due symbol's
    // lateness (how overdue for its own pace) is computed once; only due symbols are sorted.
    this.index.refresh(this.tracked, this.slow, now, this.due)
    const due = this.dueScratch
    const late = this.lateScratch
    due.length = 0
    late.length = 0
    let top = -1
    const maybe = this.index.maybeDue
    for (let i = 0; i < maybe.length;) {
      const t = maybe[i] as Tracked
      const at = this.dueAtMemo(t, now)
      if (now < at) {
        if (t.due !== undefined) {
          // Not due after all (just asked, or its market closed): back to waiting.
          maybe[i] = maybe[maybe.length - 1] as Tracked
          maybe.pop()
          this.index.waiting.push(Math.min(at, t.due.until), t)
          continue
        }
        i++
        continue
      }
      i++
      if (this.urgent.has(t.key) || !this.eligible(t, now)) continue
      const interval = this.minIntervalFor(t, now)
      const lateness = (now - t.lastAttemptAt) / interval
      if (top < 0 || this.before(lateness, t, late[top] as number, due[top] as Tracked))
        top = due.length
      due.push(t)
      late.push(lateness)
    }
    const head = owed[0] ?? due[top]
    if (!head) return null
    const route = this.routeOf(head, now)
    if (route.kline) return { ...route, keys: [head.key] }
    const family = route.route.family
    const cap = this.batchCap.get(family) ?? MAX_SYMBOLS_PER_CALL
    const sameCall = (t: Tracked): boolean => {
      const r = this.routeOf(t, now)
      return !r.kline && r.route.family === family
    }
    const keys: SymbolKey[] = []
    for (const t of owed) if (keys.length < cap && sameCall(t)) keys.push(t.key)
    if (keys.length < cap) {
      const picks: number[] = []
      for (let i = 0; i < due.length; i++) if (sameCall(due[i] as Tracked)) picks.push(i)
      // Most overdue for its own pace first: when the budget is short, foreground and background
      // slow down together and background stays the slower, never starved.
      picks.sort((a, b) =>
        this.before(late[a] as number, due[a] as Tracked, late[b] as number, due[b] as Tracked)
          ? -1
          : 1,
      )
      for (const i of picks) {
        if (keys.length >= cap) break
        keys.push((due[i] as Tracked).key)
      }
    }
    return { ...route, keys }
  }

  /**
   * A batch with room, filled up with symbols of its family that fall due within `horizonMs`,
   * soonest first: they ride a call that goes anyway, a little early, instead of going in one of
   * their own a moment later. Symbols asked together fall due together, so batches thinned by a
   * market that closed (a multi-market call of five markets with three at lunch carries 20) merge
   * back into full ones within a round, and a round takes fewer calls. Refused parts, alias probes
   * and kline calls are left as they are.
   */
  topUp(batch: Batch, now: number, horizonMs: number): Batch {
    const family = batch.route.family
    const room = this.roomIn(batch)
    if (room <= 0 || horizonMs <= 0) return batch
    const until = now + horizonMs
    const riders: Array<{ at: number; t: Tracked }> = []
    // The heap holds every tracked symbol not due now, by the earliest time it may be.
    this.index.waiting.visitBefore(
      () => until + 1,
      (_, t) => {
        const at = this.dueAtMemo(t, now)
        // Not one due because its market opens: asked before the open, it would get the close.
        if (at > until || t.due === undefined || at >= t.due.until) return
        if (this.urgent.has(t.key) || !this.eligible(t, now)) return
        const r = this.routeOf(t, now)
        if (!r.kline && r.route.family === family) riders.push({ at, t })
      },
    )
    if (riders.length === 0) return batch
    const inBatch = new Set(batch.keys)
    riders.sort((a, b) => a.at - b.at || (a.t.order ?? 0) - (b.t.order ?? 0))
    const keys = [...batch.keys]
    for (const { t } of riders) {
      if (keys.length - batch.keys.length >= room) break
      if (!inBatch.has(t.key)) keys.push(t.key)
    }
    return { ...batch, keys }
  }

  /**
   * The batch, with symbols of closed markets added where it has room: a request costs the same
   * whatever it carries (spec: Limits count calls), so a closed market asked only every few
   * minutes to save calls rides along in calls made anyway, as often as an open one would be
   * asked. Never in a part of a refused batch (its split must stay as planned).
   */
  withQuietRiders(batch: Batch, now: number): Batch {
    const family = batch.route.family
    const room = this.roomIn(batch)
    if (room <= 0) return batch
    const riders: Tracked[] = []
    for (const t of this.tracked.values()) {
      const m = t.due
      if (m === undefined || !m.quiet || now < m.from || now >= m.until) continue
      if (now - t.lastAttemptAt < this.minIntervalFor(t, now)) continue
      const r = this.routeOf(t, now)
      if (r.kline || r.route.family !== family || !this.eligible(t, now)) continue
      if (this.urgent.has(t.key) || batch.keys.includes(t.key)) continue
      riders.push(t)
    }
    if (riders.length === 0) return batch
    riders.sort((a, b) => a.lastAttemptAt - b.lastAttemptAt)
    return { ...batch, keys: [...batch.keys, ...riders.slice(0, room).map((t) => t.key)] }
  }

  /**
   * How many more symbols a batch may take: none for a kline call, a part of a refused batch (its
   * split must stay as planned) or an alias probe.
   */
  private roomIn(batch: Batch): number {
    if (batch.kline || batch.split === true || batch.aliasProbe === true) return 0
    return (this.batchCap.get(batch.route.family) ?? MAX_SYMBOLS_PER_CALL) - batch.keys.length
  }

  /** When the next tracked symbol falls due (Infinity when none can). */
  nextDueAt(now: number): number {
    this.index.refresh(this.tracked, this.slow, now, this.due)
    let at = Infinity
    const consider = (t: Tracked): void => {
      const due = this.dueAtMemo(t, now)
      if (due < at && this.eligible(t, now)) at = due
    }
    for (const t of this.index.maybeDue) consider(t)
    // A waiting symbol falls due no sooner than its time in the heap, which is past now.
    this.index.waiting.visitBefore(
      () => at,
      (_, t) => consider(t),
    )
    return at
  }

  /**
   * Which of two due symbols goes first: the later for its own pace; equal lateness (never
   * asked: both Infinity) keeps poll-set order.
   */
  private before(lateA: number, a: Tracked, lateB: number, b: Tracked): boolean {
    if (lateA !== lateB) return lateA > lateB
    return (a.order ?? 0) < (b.order ?? 0)
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

  routeOf(t: Tracked, now: number): Routed {
    if (t.market === 'agri' && this.verdicts.viaKline(t.key, now)) return VIA_KLINE
    return quoteRouted(t.market)
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
  protected dueAt(t: Tracked, now: number): number {
    return nextPollAt(t.market, t.symbol, t.lastAttemptAt, this.minIntervalFor(t, now), now)
  }

  /** dueAt, remembered (poll-pace.ts): the poller asks before every call. */
  private dueAtMemo(t: Tracked, now: number): number {
    return rememberedDueAt(t, now, this.slow, this.due)
  }

  protected minIntervalFor(t: Tracked, now: number): number {
    if (this.routeOf(t, now).kline) return KLINE_FALLBACK_MS
    return Math.max(
      this.minIntervalMs,
      t.background ? BACKGROUND_POLL_MS : 0,
      this.slow.has(t.key) ? SLOW_POLL_MS : 0,
    )
  }

  protected eligible(t: Tracked, now: number): boolean {
    return !this.inFlight.has(t.key) && this.verdictFor(t, now) === null
  }
}

const NONE: ReadonlySet<SymbolKey> = new Set()

/** Where a symbol's quote is asked; shared objects, so asking allocates nothing. */
export interface Routed {
  readonly route: Route
  readonly kline: boolean
}
const VIA_KLINE: Routed = { route: AGRI_FALLBACK, kline: true }
const VIA_QUOTE = new Map<Market, Routed>()

function quoteRouted(market: Market): Routed {
  let r = VIA_QUOTE.get(market)
  if (r === undefined) {
    r = { route: quoteRoute(market), kline: false }
    VIA_QUOTE.set(market, r)
  }
  return r
}
