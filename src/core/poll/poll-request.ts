import type { Market, SymbolKey } from '../../shared/markets/market'
import type { Batch } from './poll-batch'
import type { Tracked } from './poll-queue'
import type { QuoteUpdate } from '../quotes/quote-fields'
import type { RestClient } from '../rest/rest-client'
import { parseTickerQuotes, quoteFromLatestBar } from '../rest/ticker-quote'
import { spellingKey } from '../push/push-symbols'

/**
 * How one poll batch is asked of the service and its answer matched back to the polled symbols:
 * the quote endpoints (one call for up to 50 symbols, a symbol answered under another spelling
 * of it, "600519.SH" or "BTC-USDT", one symbol named for two markets asked once) and the 1m
 * kline fallback. What an answer or a refusal does to the poll set: poll-outcomes.ts.
 */

/** A call's quotes, each beside the key of the polled symbol it answers. */
export interface Answer {
  updates: QuoteUpdate[]
  keys: SymbolKey[]
}
export const NO_ANSWER: Answer = { updates: [], keys: [] }
const NONE: readonly Tracked[] = []

/** What a request needs from its poller; made once per poller, not per call. */
export interface PollAsker {
  client: RestClient
  lookup(key: SymbolKey): Tracked | undefined
  /** The poller's current abort signal (stop() aborts what is in flight). */
  signal(): AbortSignal
  now(): number
  onServiceTag?: ((market: Market, tag: string) => void) | undefined
}

/** The quote endpoints, the symbols named under `param` ('symbols', or the alias 'symbol'). */
export async function askQuotes(
  o: PollAsker,
  batch: Batch,
  param: 'symbols' | 'symbol',
): Promise<Answer> {
  // Each symbol's first owner, and the rare others: a multi-market call may name one symbol
  // for two markets, asked once and answered for both.
  const bySymbol = new Map<string, Tracked>()
  let others: Map<string, Tracked[]> | null = null
  for (const key of batch.keys) {
    const t = o.lookup(key)
    if (t === undefined) continue
    const owner = bySymbol.get(t.symbol)
    if (owner === undefined) bySymbol.set(t.symbol, t)
    else {
      others ??= new Map()
      others.set(t.symbol, [...(others.get(t.symbol) ?? []), t])
    }
  }
  const first = bySymbol.values().next().value
  if (first === undefined) return NO_ANSWER
  const { data } = await o.client.get(
    batch.route.path,
    { [param]: [...bySymbol.keys()].join(',') },
    o.signal(),
    'poll',
  )
  const lone = bySymbol.size === 1 && others === null ? first : undefined
  const answer: Answer = { updates: [], keys: [] }
  const parsed = parseTickerQuotes(data, first.market, o.now())
  const spelled = parsed.updates.some((u) => !bySymbol.has(u.symbol)) ? spellings(bySymbol) : null
  for (const u of parsed.updates) {
    // A symbol may come back under the service's own spelling, as the multi-market quote allows
    // (spec: Listed endpoints without detail).
    const owner = bySymbol.get(u.symbol) ?? spelled?.get(spellingKey(u.symbol)) ?? lone
    if (owner === undefined) continue
    const tag = parsed.tags?.get(u.symbol)
    if (tag !== undefined) o.onServiceTag?.(owner.market, tag)
    // The parsed update is this poll's own: its owner's names go in place, no copy.
    u.market = owner.market
    u.symbol = owner.symbol
    answer.updates.push(u)
    answer.keys.push(owner.key)
    for (const t of others?.get(u.symbol) ?? NONE) {
      answer.updates.push({ ...u, market: t.market, symbol: t.symbol })
      answer.keys.push(t.key)
    }
  }
  return answer
}

/** The asked symbols by their spelling key (push-symbols.ts), those no other shares. */
function spellings(bySymbol: ReadonlyMap<string, Tracked>): Map<string, Tracked> {
  const out = new Map<string, Tracked>()
  const shared = new Set<string>()
  for (const [symbol, t] of bySymbol) {
    const key = spellingKey(symbol)
    if (out.has(key)) shared.add(key)
    out.set(key, t)
  }
  for (const key of shared) out.delete(key)
  return out
}

/** The close of the symbol's latest 1m bar (agriculture the quote endpoints do not serve). */
export async function askKline(o: PollAsker, batch: Batch): Promise<Answer> {
  const t = batch.keys[0] ? o.lookup(batch.keys[0]) : undefined
  if (!t) return NO_ANSWER
  const query = { symbol: t.symbol, interval: '1', limit: '1' }
  const { data } = await o.client.get(batch.route.path, query, o.signal(), 'poll')
  const update = quoteFromLatestBar(data, t.market, t.symbol, o.now())
  return update ? { updates: [update], keys: [t.key] } : NO_ANSWER
}
