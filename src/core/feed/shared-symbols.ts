import type { Market, SymbolKey } from '../../shared/markets/market'
import { quoteRoute } from '../rest/market-routes'
import type { MarketGate } from '../stream/stream-market-names'

/**
 * The planner's two choices about a symbol two watched markets share (a coin and its perpetual,
 * both BTCUSDT): which market's instance streams when the stream's pushes name no market, and
 * which symbol shadows a market on trial.
 */
export interface PlanEntry {
  key: SymbolKey
  market: Market
  symbol: string
  priority: number
  order: number
}

type Entry = PlanEntry

/**
 * The one symbol of each 'probe' market that stays subscribed as a shadow: its pushes try the
 * next name or reading while the market polls. Its best ranked symbol that may stream and that
 * no other watched market shares (a shared one's pushes may be the other market's: a coin and its
 * perpetual), else its best ranked.
 */
export function probeSymbols(
  byRank: readonly Entry[],
  gates: ReadonlyMap<Market, MarketGate>,
  mayStream: (e: Entry) => boolean,
): Entry[] {
  if (gates.size === 0) return []
  const markets = new Map<string, Set<Market>>()
  for (const e of byRank) markets.set(e.symbol, (markets.get(e.symbol) ?? new Set()).add(e.market))
  const best = new Map<Market, Entry>()
  for (const e of byRank) {
    if (gates.get(e.market) !== 'probe') continue
    if (!mayStream(e)) continue
    const held = best.get(e.market)
    const shared = (x: Entry): boolean => (markets.get(x.symbol)?.size ?? 0) > 1
    if (held === undefined || (shared(held) && !shared(e))) best.set(e.market, e)
  }
  return [...best.values()]
}

/**
 * Of each symbol whose pushes name no market and that two watched markets share, the instances
 * that give way to the other: all but the one in the smaller endpoint family (quoteRoute), whose
 * batch streaming it is likelier to empty (a coin's perpetual among 6 beside it among 32), then
 * the better ranked.
 */
export function yieldingInstances(
  watched: readonly Entry[],
  untold: ReadonlySet<string>,
): Set<SymbolKey> {
  const out = new Set<SymbolKey>()
  if (untold.size === 0) return out
  const familySize = new Map<string, number>()
  for (const e of watched) {
    const f = quoteRoute(e.market).family
    familySize.set(f, (familySize.get(f) ?? 0) + 1)
  }
  const size = (e: Entry): number => familySize.get(quoteRoute(e.market).family) ?? 0
  const bySymbol = new Map<string, Entry[]>()
  for (const e of watched)
    if (untold.has(e.symbol)) bySymbol.set(e.symbol, [...(bySymbol.get(e.symbol) ?? []), e])
  for (const list of bySymbol.values()) {
    const keep = [...list].sort(
      (a, b) => size(a) - size(b) || b.priority - a.priority || a.order - b.order,
    )[0]
    for (const e of list) if (e !== keep) out.add(e.key)
  }
  return out
}
