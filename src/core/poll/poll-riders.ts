import type { SymbolKey } from '../../shared/markets/market'
import { MAX_SYMBOLS_PER_CALL, type EndpointFamily } from '../rest/market-routes'
import type { Batch } from './poll-batch'
import type { Tracked } from './poll-pace'
import type { WakeHeap } from './wake-heap'

/**
 * Symbols that ride a call going anyway: a request costs the same whatever it carries (spec:
 * Limits count calls), so a call with room takes, in this order, symbols of its family falling
 * due soon (topUp), symbols of closed markets asked rarely (withQuietRiders), and stream samples
 * (withSamples: streamed symbols asked over REST to check the stream's price, core/trust). Refused
 * parts, alias probes and kline calls take none: their split must stay as planned.
 */

/** What the riders read of the poll queue (poll-queue.ts). */
export interface RiderQueue {
  readonly tracked: ReadonlyMap<SymbolKey, Tracked>
  readonly urgent: ReadonlyMap<SymbolKey, number>
  readonly batchCap: ReadonlyMap<EndpointFamily, number>
  /** Poll-set symbols not due now, by the earliest time they may be. */
  readonly waiting: WakeHeap<Tracked>
  dueAtMemo(t: Tracked, now: number): number
  eligible(t: Tracked, now: number): boolean
  /** The endpoint family a symbol is asked on now; null on the kline fallback. */
  familyOf(t: Tracked, now: number): EndpointFamily | null
  minIntervalFor(t: Tracked, now: number): number
}

/** How many more symbols a batch may take (none for a kline call, a refused part, a probe). */
export function roomIn(q: RiderQueue, batch: Batch): number {
  if (batch.kline || batch.split === true || batch.aliasProbe === true) return 0
  return (q.batchCap.get(batch.route.family) ?? MAX_SYMBOLS_PER_CALL) - batch.keys.length
}

/**
 * Symbols of the batch's family that fall due within `horizonMs`, soonest first: they ride a call
 * that goes anyway, a little early, instead of going in one of their own a moment later. Symbols
 * asked together fall due together, so batches thinned by a market that closed (a multi-market
 * call of five markets with three at lunch carries 20) merge back into full ones within a round,
 * and a round takes fewer calls.
 */
export function topUp(q: RiderQueue, batch: Batch, now: number, horizonMs: number): Batch {
  const family = batch.route.family
  const room = roomIn(q, batch)
  if (room <= 0 || horizonMs <= 0) return batch
  const until = now + horizonMs
  const riders: Array<{ at: number; t: Tracked }> = []
  q.waiting.visitBefore(
    () => until + 1,
    (_, t) => {
      const at = q.dueAtMemo(t, now)
      // Not one due because its market opens: asked before the open, it would get the close.
      if (at > until || t.due === undefined || at >= t.due.until) return
      if (q.urgent.has(t.key) || !q.eligible(t, now)) return
      if (q.familyOf(t, now) === family) riders.push({ at, t })
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
 * Symbols of closed markets, asked only every few minutes to save calls, ride along in calls made
 * anyway, as often as an open one would be asked.
 */
export function withQuietRiders(q: RiderQueue, batch: Batch, now: number): Batch {
  const family = batch.route.family
  const room = roomIn(q, batch)
  if (room <= 0) return batch
  const riders: Tracked[] = []
  for (const t of q.tracked.values()) {
    const m = t.due
    if (m === undefined || !m.quiet || now < m.from || now >= m.until) continue
    if (now - t.lastAttemptAt < q.minIntervalFor(t, now)) continue
    if (q.familyOf(t, now) !== family || !q.eligible(t, now)) continue
    if (q.urgent.has(t.key) || batch.keys.includes(t.key)) continue
    riders.push(t)
  }
  if (riders.length === 0) return batch
  riders.sort((a, b) => a.lastAttemptAt - b.lastAttemptAt)
  return { ...batch, keys: [...batch.keys, ...riders.slice(0, room).map((t) => t.key)] }
}

/** Stream samples of the batch's family waiting for a call to ride (oldest first), where room is. */
export function withSamples(
  q: RiderQueue,
  batch: Batch,
  now: number,
  samples: ReadonlyMap<SymbolKey, { t: Tracked; since: number }>,
): Batch {
  if (samples.size === 0) return batch
  const room = roomIn(q, batch)
  if (room <= 0) return batch
  const family = batch.route.family
  const riders = [...samples.values()]
    .filter(
      ({ t }) => q.familyOf(t, now) === family && q.eligible(t, now) && !batch.keys.includes(t.key),
    )
    .sort((a, b) => a.since - b.since)
  if (riders.length === 0) return batch
  return { ...batch, keys: [...batch.keys, ...riders.slice(0, room).map(({ t }) => t.key)] }
}
