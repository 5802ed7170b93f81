import type { Market, SymbolKey } from '../../shared/markets/market'
import { isQuiet, sessionChangeAfter } from './session-pacing'
import { WakeHeap } from './wake-heap'

/**
 * When each polled symbol falls due: the paces (background, slow, kline fallback), the symbol's
 * record with its remembered due time, and the index of who may be due now. Apart from
 * poll-queue.ts, which decides which batch goes next, because working out and remembering due
 * times is its own job (and the costly part at 5000 symbols).
 */

/** A symbol the poller asks, and what its pacing remembers of it. */
export interface Tracked {
  key: SymbolKey
  market: Market
  symbol: string
  lastAttemptAt: number
  lastPolledAt: number | null
  /** On a list out of view, with no alert and not pinned: polled at most every BACKGROUND_POLL_MS. */
  background: boolean
  /** When it falls due, as last worked out, and what that answer rests on (rememberedDueAt). */
  due?: DueMemo
  /** Its place in the poll set: ties in lateness go in this order. */
  order?: number
}

interface DueMemo {
  at: number
  /** Worked out at `from`; holds until its market's session changes (`until`)... */
  from: number
  until: number
  /** ...and while these inputs stay the same. */
  attempt: number
  background: boolean
  slow: ReadonlySet<SymbolKey>
  /** Its market is closed or in a break over [from, until). */
  quiet: boolean
}

/**
 * Symbols only on lists out of view (no alert, not pinned) are polled at most this often: six
 * times the foreground floor, so a trader's other lists cost a sixth of their calls while what is
 * on screen, alerted or pinned keeps the budget.
 */
export const BACKGROUND_POLL_MS = 30_000

/** An agri bar is a minute long: asking for it more often only spends the budget. */
export const KLINE_FALLBACK_MS = 60_000

/**
 * How often a symbol watched only as a helper (the FX pair converting the trader's lots to the
 * base currency) is asked: a rate that is a minute old moves a total by a rounding error.
 */
export const SLOW_POLL_MS = 60_000

/**
 * A call with room takes symbols of its family falling due within this long (PollQueue.topUp):
 * they cost no call, and come at most this much before their pace (5 % of the 5 s floor)...
 */
export const RIDE_ALONG_MS = 250

/**
 * ...or, when calls are spaced wider than that (a small plan's budget), before the next call
 * could go: waiting, such a symbol would be asked late and in a call of its own. Without it a
 * family split in two by a plan change (symbols leaving the stream while its market's name is
 * learned) stays split for good: each half due a moment after the other's call, two calls a
 * round where one would do (bench/freshness/freshness-timeline.ts: polled median 4.5 s, not 2.8 s).
 */
export function rideAlongMs(spacingMs: number): number {
  return Math.max(RIDE_ALONG_MS, spacingMs)
}

/** Works out a symbol's due time afresh (PollQueue.dueAt: its session, pace and last ask). */
export interface DueSource {
  dueAt(t: Tracked, now: number): number
}

/**
 * dueAt, remembered: the poller asks before every call (~40/s at 5000 symbols on Enterprise),
 * and working it out takes a symbol's timetable and session each time. The answer stands until
 * the symbol is asked again, its pace changes (background, slow) or its market's session does.
 * Agri symbols are always worked out afresh: their pace follows the kline fallback, whose
 * verdicts expire on their own.
 */
export function rememberedDueAt(
  t: Tracked,
  now: number,
  slow: ReadonlySet<SymbolKey>,
  source: DueSource,
): number {
  const m = t.due
  if (
    m !== undefined &&
    now >= m.from &&
    now < m.until &&
    m.attempt === t.lastAttemptAt &&
    m.background === t.background &&
    m.slow === slow
  )
    return m.at
  const at = source.dueAt(t, now)
  if (t.market !== 'agri') {
    const until = sessionChangeAfter(t.market, t.symbol, now)
    // Worked out again each time a symbol is asked (~1000 a second): the memo is rewritten.
    if (m === undefined)
      t.due = {
        at,
        from: now,
        until,
        attempt: t.lastAttemptAt,
        background: t.background,
        slow,
        quiet: isQuiet(t.market, t.symbol, now),
      }
    else {
      m.at = at
      m.from = now
      m.until = until
      m.attempt = t.lastAttemptAt
      m.background = t.background
      m.slow = slow
      m.quiet = isQuiet(t.market, t.symbol, now)
    }
  }
  return at
}

/** Poll-set symbols that may be due now, and the others by when they may be. */
export class DueIndex {
  readonly maybeDue: Tracked[] = []
  readonly waiting = new WakeHeap<Tracked>()
  private indexedSet: Map<SymbolKey, Tracked> | null = null
  private indexedSlow: ReadonlySet<SymbolKey> | null = null
  private indexedAt = -Infinity

  /**
   * Keeps maybeDue (symbols that may be due now) and waiting (the others, by the earliest time
   * they may be: when they fall due or their market's session changes, whichever is first)
   * current. Rebuilt when the poll set, the slow set or the clock's direction changes; asking a
   * symbol only moves its due time later, so it needs nothing here.
   */
  refresh(
    tracked: Map<SymbolKey, Tracked>,
    slow: ReadonlySet<SymbolKey>,
    now: number,
    source: DueSource,
  ): void {
    if (this.indexedSet !== tracked || this.indexedSlow !== slow || now < this.indexedAt) {
      this.indexedSet = tracked
      this.indexedSlow = slow
      this.maybeDue.length = 0
      this.waiting.clear()
      let order = 0
      for (const t of tracked.values()) {
        t.order = order++
        const at = rememberedDueAt(t, now, slow, source)
        if (now < at && t.due !== undefined) this.waiting.push(Math.min(at, t.due.until), t)
        else this.maybeDue.push(t)
      }
    }
    this.indexedAt = now
    while (this.waiting.peekAt() <= now) this.maybeDue.push(this.waiting.pop() as Tracked)
  }
}

export function fresh(key: SymbolKey, market: Market, symbol: string): Tracked {
  return { key, market, symbol, lastAttemptAt: -Infinity, lastPolledAt: null, background: false }
}
