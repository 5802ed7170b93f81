import type { Market, SymbolKey } from '../../shared/markets/market'
import type { Route } from '../rest/market-routes'

/** One metered REST call of the poller: a quote batch, or one agri symbol's latest kline bar. */
export interface Batch {
  route: Route
  /** True when the symbol is asked alone on the agri kline endpoint (its quote was refused). */
  kline: boolean
  keys: SymbolKey[]
  /** A part of a refused batch (its symbols were refused together before). */
  split?: boolean
  /** Asked again with the other name of the symbols parameter after an INVALID_REQUEST. */
  aliasProbe?: boolean
}

/** What the splitter needs to know of each symbol in a refused batch. */
export interface BatchMember {
  key: SymbolKey
  market: Market
  symbol: string
  /** The service has answered for this symbol before. */
  proven: boolean
}

/**
 * How a batch the service refused as a whole (one bad symbol fails the request: spec Errors, one
 * envelope carries one code) is split before it is asked again, cheapest guess first:
 *   1. symbols the error message names go alone, the others together (a hint only: the named
 *      ones are asked once more on their own, so a message naming the wrong one costs a call);
 *   2. one batch per market (the multi-market quote mixes markets);
 *   3. symbols the service answered before apart from new ones (the new ones are the suspects);
 *   4. halves.
 * A lone symbol is not split ([]): it is the one refused.
 */
export function splitRefused(
  batch: Batch,
  members: BatchMember[],
  message: string | null,
): Batch[] {
  if (members.length <= 1) return []
  const named = message === null ? [] : members.filter((m) => namedIn(message, m.symbol))
  if (named.length > 0 && named.length < members.length) {
    const rest = members.filter((m) => !named.includes(m))
    return [...named.map((m) => [m]), rest].map((group) => part(batch, group))
  }
  const byMarket = splitByMarket(batch, members)
  if (byMarket.length > 0) return byMarket
  const proven = members.filter((m) => m.proven)
  if (proven.length > 0 && proven.length < members.length) {
    return [
      part(
        batch,
        members.filter((m) => !m.proven),
      ),
      part(batch, proven),
    ]
  }
  const mid = Math.ceil(members.length / 2)
  return [part(batch, members.slice(0, mid)), part(batch, members.slice(mid))]
}

/** One batch per market, or [] when the batch holds one market only. */
export function splitByMarket(batch: Batch, members: BatchMember[]): Batch[] {
  const groups = new Map<Market, BatchMember[]>()
  for (const m of members) groups.set(m.market, [...(groups.get(m.market) ?? []), m])
  if (groups.size <= 1) return []
  return [...groups.values()].map((group) => part(batch, group))
}

function part(batch: Batch, members: BatchMember[]): Batch {
  return { ...batch, keys: members.map((m) => m.key), split: true }
}

const TOKEN_SPLIT = /[^A-Z0-9.!_/-]+/

/** Whether the message names the symbol as a whole word (EURUSD in "unknown symbol: EURUSD"). */
function namedIn(message: string, symbol: string): boolean {
  return message.toUpperCase().split(TOKEN_SPLIT).includes(symbol)
}
