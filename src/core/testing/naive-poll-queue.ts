// The PollQueue's choice of the next batch done the plain way, sorting every tracked symbol on
// every call: the oracle poll-queue.spec.ts compares the fast queue's batches with. Only the
// choice is the plain one: the bookkeeping (lists, owed snapshots, refused parts and which goes
// next, flights, answers, routes, paces) is the PollQueue's own, inherited, so the oracle copies
// no rule but the one it checks.
import { MAX_SYMBOLS_PER_CALL } from '../rest/market-routes'
import type { Batch } from '../poll/poll-batch'
import type { SymbolKey } from '../../shared/markets/market'
import { PollQueue, type Tracked } from '../poll/poll-queue'

export class NaivePollQueue extends PollQueue {
  /** Refused batches waiting to be split further, or a snapshot someone asked for. */
  override hasUrgentWork(now: number): boolean {
    if (this.pending.length > 0) return true
    for (const key of this.urgent.keys()) {
      const t = this.lookup(key)
      if (t && this.eligible(t, now)) return true
      // Refused or blocked meanwhile: the snapshot is not owed any more.
      if (!t || !this.inFlight.has(key)) this.urgent.delete(key)
    }
    return false
  }

  override nextBatch(now: number): Batch | null {
    // Refused parts go first in both queues; only what follows is the plain choice.
    const part = this.nextPart(now)
    if (part !== null) return part
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
  override nextDueAt(now: number): number {
    let at = Infinity
    for (const t of this.tracked.values()) {
      if (this.eligible(t, now)) at = Math.min(at, this.dueAt(t, now))
    }
    return at
  }

  private inPending(key: SymbolKey): boolean {
    return this.pending.some((p) => p.keys.includes(key))
  }
}
