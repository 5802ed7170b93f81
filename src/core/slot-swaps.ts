import type { Market } from '../shared/market'
import { MAX_SYMBOLS_PER_CALL, quoteRoute } from './market-routes'

export interface SlotCandidate {
  market: Market
  priority: number
  order: number
  /** It may take a stream slot (a streamable market, not demoted). */
  streamable: boolean
}

/**
 * Stream slots are scarce and REST calls are the budget: every endpoint family with polled
 * symbols costs one call per poll round (up to 50 symbols each, spec: Limits). Within the lowest
 * priority tier that got slots, where watch order alone broke the tie, slots move to a whole
 * family's polled symbols when that takes a call out of every round: the Free plan's 10 slots on
 * 6 perpetuals and 4 of 32 coins poll 2 families instead of 3. Priorities are never crossed (a
 * visible row keeps its slot over any other), and nothing moves unless the count of calls drops.
 * Returns the new split; the inputs are not changed.
 */
export function fewerPollCalls<T extends SlotCandidate>(
  streamed: readonly T[],
  polled: readonly T[],
): { streamed: T[]; polled: T[] } {
  let s = [...streamed]
  let p = [...polled]
  const tier = s.reduce((min, e) => Math.min(min, e.priority), Infinity)
  for (;;) {
    const swap = bestSwap(s, p, tier)
    if (swap === null) return { streamed: s, polled: p }
    s = [...s.filter((e) => !swap.out.includes(e)), ...swap.in]
    p = [...p.filter((e) => !swap.in.includes(e)), ...swap.out]
  }
}

function bestSwap<T extends SlotCandidate>(
  streamed: T[],
  polled: T[],
  tier: number,
): { in: T[]; out: T[] } | null {
  const before = calls(polled)
  let best: { in: T[]; out: T[]; calls: number } | null = null
  for (const [family, members] of byFamily(polled)) {
    // The whole family must be able to stream, at the tier where order decided.
    if (!members.every((e) => e.streamable && e.priority === tier)) continue
    const out = streamed
      .filter((e) => e.priority === tier && familyOf(e) !== family)
      .sort((a, b) => b.order - a.order)
      .slice(0, members.length)
    if (out.length < members.length) continue
    const after = calls([...polled.filter((e) => !members.includes(e)), ...out])
    if (after < before && (best === null || after < best.calls))
      best = { in: members, out, calls: after }
  }
  return best === null ? null : { in: best.in, out: best.out }
}

function familyOf(e: SlotCandidate): string {
  return quoteRoute(e.market).family
}

function byFamily<T extends SlotCandidate>(entries: readonly T[]): Map<string, T[]> {
  const out = new Map<string, T[]>()
  for (const e of entries) out.set(familyOf(e), [...(out.get(familyOf(e)) ?? []), e])
  return out
}

/** REST calls one poll round of these symbols costs. */
function calls(polled: readonly SlotCandidate[]): number {
  let n = 0
  for (const members of byFamily(polled).values())
    n += Math.ceil(members.length / MAX_SYMBOLS_PER_CALL)
  return n
}
