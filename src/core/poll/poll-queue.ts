import { parseSymbolKey, symbolKey, type SymbolKey } from '../../shared/markets/market'
import { MAX_SYMBOLS_PER_CALL, type EndpointFamily } from '../rest/market-routes'
import type { Batch, BatchMember } from './poll-batch'
import { topUp, withQuietRiders, withSamples, type RiderQueue } from './poll-riders'
import { minIntervalFor, routeOf, type Routed } from './poll-routes'
import { StreamSamples } from './poll-samples'
import type { PollVerdicts, Verdict } from './poll-verdicts'
import { nextPollAt } from './session-pacing'
import { DueIndex, fresh, rememberedDueAt, type DueSource, type Tracked } from './poll-pace'

export { BACKGROUND_POLL_MS, KLINE_FALLBACK_MS, SLOW_POLL_MS, type Tracked } from './poll-pace'
export type { Routed } from './poll-routes'

/**
 * What the QuotePoller owes the service's symbols, and which batch goes next. Three kinds of
 * work, in this order: parts of a refused batch (pending), symbols someone asked to have polled
 * now (urgent: snapshots, also of streamed symbols, held in oneShot), then the poll set (tracked)
 * by staleness; and riders filling a call's room (poll-riders.ts), stream samples among them,
 * which go on their own only after waiting RIDE_WAIT_MS for a call. A symbol is never in two
 * requests at once, never asked while a verdict or a block stands (PollVerdicts), and a symbol
 * waiting in a pending part is asked only there.
 */
export class PollQueue implements RiderQueue {
  tracked = new Map<SymbolKey, Tracked>()
  /** Symbols polled once on request but not part of the poll set (streamed ones after a gap). */
  readonly oneShot = new Map<SymbolKey, Tracked>()
  /** Symbols owed a poll as soon as the budget allows, and since when. */
  readonly urgent = new Map<SymbolKey, number>()
  protected pending: Batch[] = []
  protected readonly inFlight = new Set<SymbolKey>()
  /**
   * Symbols the trader stopped watching while a call asking them was out: that answer is not
   * handed on. A symbol that only left the poll set (it streams now) is still watched: its
   * answer is a price the service served a moment ago, and is handed on.
   */
  private readonly unwatchedInFlight = new Set<SymbolKey>()
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
  /** Stream samples riding calls of their family (poll-samples.ts). */
  readonly samples = new StreamSamples()

  get waiting(): RiderQueue['waiting'] {
    return this.index.waiting
  }

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

  /**
   * Streamed symbols to ask over REST once (stream samples, core/trust), riding the next call of
   * their family; one still waiting after RIDE_WAIT_MS is owed at once (hasUrgentWork).
   */
  sample(keys: readonly SymbolKey[], now: number): void {
    this.samples.add(keys, now, (key) => this.tracked.has(key) || this.oneShot.has(key))
  }

  lookup(key: SymbolKey): Tracked | undefined {
    return this.tracked.get(key) ?? this.oneShot.get(key) ?? this.samples.lookup(key)
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
    // A sample that waited long enough for a ride is asked now, in a call of its own if need be.
    this.samples.overdue(now, this.inFlight, (t) => {
      this.oneShot.set(t.key, t)
      this.owe(t.key, now)
    })
    for (const key of this.urgent.keys()) {
      const t = this.lookup(key)
      if (t && this.eligible(t, now)) return true
      // Refused or blocked meanwhile: the snapshot is not owed any more.
      if (!t || !this.inFlight.has(key)) this.urgent.delete(key)
    }
    return false
  }

  nextBatch(now: number): Batch | null {
    const part = this.nextPart(now)
    if (part !== null) return part
    // From here no part is pending: no symbol waits in one.
    const owed: Tracked[] = []
    for (const key of this.urgent.keys()) {
      const t = this.lookup(key)
      if (t && this.eligible(t, now)) owed.push(t)
    }
    const top = this.collectDue(now)
    const head = owed[0] ?? this.dueScratch[top]
    if (!head) return null
    const route = this.routeOf(head, now)
    if (route.kline) return { ...route, keys: [head.key] }
    return { ...route, keys: this.fill(route.route.family, owed, now) }
  }

  /** The next refused part that still has symbols to ask, or null. */
  protected nextPart(now: number): Batch | null {
    while (this.pending.length > 0) {
      const part = this.pending.shift() as Batch
      const keys = part.keys.filter((k) => {
        const t = this.lookup(k)
        return t !== undefined && this.eligible(t, now) && this.routeOf(t, now).kline === part.kline
      })
      if (keys.length > 0) return { ...part, keys }
    }
    return null
  }

  /**
   * The due poll-set symbols into dueScratch, their lateness (how overdue for their own pace)
   * into lateScratch; the index of the most overdue, or -1. Only symbols that may be due are
   * looked at (the rest wait in a heap by when they may be): this runs before every call (~40/s
   * at 5000 symbols on Enterprise).
   */
  private collectDue(now: number): number {
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
      const lateness = (now - t.lastAttemptAt) / this.minIntervalFor(t, now)
      if (top < 0 || this.before(lateness, t, late[top] as number, due[top] as Tracked))
        top = due.length
      due.push(t)
      late.push(lateness)
    }
    return top
  }

  /** One call of `family`: the owed symbols first, then the due ones, most overdue first. */
  private fill(family: EndpointFamily, owed: readonly Tracked[], now: number): SymbolKey[] {
    const due = this.dueScratch
    const late = this.lateScratch
    const cap = this.batchCap.get(family) ?? MAX_SYMBOLS_PER_CALL
    const keys: SymbolKey[] = []
    for (const t of owed)
      if (keys.length < cap && this.familyOf(t, now) === family) keys.push(t.key)
    if (keys.length >= cap) return keys
    const picks: number[] = []
    for (let i = 0; i < due.length; i++)
      if (this.familyOf(due[i] as Tracked, now) === family) picks.push(i)
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
    return keys
  }

  /** The batch with its family's symbols due within `horizonMs` riding along (poll-riders.ts). */
  topUp(batch: Batch, now: number, horizonMs: number): Batch {
    return topUp(this, batch, now, horizonMs)
  }

  /** The batch with closed markets' symbols riding along where it has room (poll-riders.ts). */
  withQuietRiders(batch: Batch, now: number): Batch {
    return withQuietRiders(this, batch, now)
  }

  /** The batch with stream samples of its family riding along where it has room (poll-riders.ts). */
  withSamples(batch: Batch, now: number): Batch {
    return withSamples(this, batch, now, this.samples.waiting)
  }

  familyOf(t: Tracked, now: number): EndpointFamily | null {
    const r = this.routeOf(t, now)
    return r.kline ? null : r.route.family
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
    this.samples.began(batch)
    for (const key of batch.keys) {
      this.inFlight.add(key)
      this.urgent.delete(key)
      const t = this.lookup(key)
      if (t) t.lastAttemptAt = now
    }
  }

  /** The trader stopped watching it: an answer on its way for it is not handed on. */
  unwatched(key: SymbolKey): void {
    if (this.inFlight.has(key)) this.unwatchedInFlight.add(key)
  }

  /** Whether an answer for this symbol, asked in a call now ending, is still wanted. */
  wanted(key: SymbolKey): boolean {
    return !this.unwatchedInFlight.has(key)
  }

  /** The batch is done; a snapshot owed to a streamed symbol survives its batch being split. */
  end(batch: Batch, split: boolean): void {
    for (const key of batch.keys) {
      this.inFlight.delete(key)
      this.unwatchedInFlight.delete(key)
      if (!split) {
        this.oneShot.delete(key)
        this.samples.ended(key)
      }
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
    return routeOf(t, now, this.verdicts)
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
  dueAtMemo(t: Tracked, now: number): number {
    return rememberedDueAt(t, now, this.slow, this.due)
  }

  minIntervalFor(t: Tracked, now: number): number {
    return minIntervalFor(t, this.routeOf(t, now), this.minIntervalMs, this.slow)
  }

  eligible(t: Tracked, now: number): boolean {
    return !this.inFlight.has(t.key) && this.verdictFor(t, now) === null
  }
}

const NONE: ReadonlySet<SymbolKey> = new Set()
