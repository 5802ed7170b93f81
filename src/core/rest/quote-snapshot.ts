import { parseSymbolKey, symbolKey, type SymbolKey } from '../../shared/markets/market'
import { isTickdeskError, refusesWhatWasAsked, SYMBOL_400 } from '../errors'
import { MAX_SYMBOLS_PER_CALL, quoteRoute, type Route } from './market-routes'
import type { QuoteFields } from '../quotes/quote-fields'
import type { RestClient } from './rest-client'
import { probeSymbol } from './symbol-probe'
import { parseTickerQuotes } from './ticker-quote'

/**
 * One REST snapshot of some symbols, for a command that needs prices once (`tickdesk
 * positions`): one quote call per endpoint family and 50 symbols, like a polling round. A symbol
 * the batch answer leaves out, or every symbol of a batch the service refused, is asked alone
 * through probeSymbol (agriculture on its latest bar), so one bad symbol costs only itself.
 */
export interface SnapshotProblem {
  key: SymbolKey
  code: string
  message: string
}

export interface Snapshot {
  quotes: Map<SymbolKey, QuoteFields>
  problems: SnapshotProblem[]
}

export async function fetchSnapshot(
  client: RestClient,
  keys: readonly SymbolKey[],
  now: () => number,
): Promise<Snapshot> {
  const quotes = new Map<SymbolKey, QuoteFields>()
  const problems: SnapshotProblem[] = []
  const batches = new Map<string, { route: Route; keys: SymbolKey[] }>()
  for (const raw of new Set(keys)) {
    const ref = parseSymbolKey(raw)
    if (ref === null) {
      problems.push({ key: raw, code: 'INVALID_SYMBOL', message: `${raw} is not market:SYMBOL` })
      continue
    }
    const route = quoteRoute(ref.market)
    const batch = batches.get(route.family) ?? { route, keys: [] }
    batch.keys.push(symbolKey(ref.market, ref.symbol))
    batches.set(route.family, batch)
  }
  const alone: SymbolKey[] = []
  for (const { route, keys: all } of batches.values()) {
    for (let i = 0; i < all.length; i += MAX_SYMBOLS_PER_CALL) {
      const chunk = all.slice(i, i + MAX_SYMBOLS_PER_CALL)
      try {
        const got = await askBatch(client, route, chunk, now())
        for (const key of chunk) {
          const fields = got.get(key)
          if (fields) quotes.set(key, fields)
          else alone.push(key)
        }
      } catch (e) {
        // Only a refusal of what was asked is worth asking symbol by symbol; 401, 429, offline
        // and account-wide 403s would only be repeated.
        if (
          !isTickdeskError(e) ||
          !(
            SYMBOL_400.has(String(e.code)) ||
            String(e.code) === 'INVALID_REQUEST' ||
            refusesWhatWasAsked(e)
          )
        )
          throw e
        alone.push(...chunk)
      }
    }
  }
  for (const key of alone) {
    const probe = await probeSymbol(client, key, now)
    if (probe.verdict === 'listed' && probe.update) quotes.set(key, probe.update.fields)
    else if (probe.verdict !== 'listed')
      problems.push({ key, code: probe.code, message: probe.message })
    else
      problems.push({ key, code: 'NO_DATA', message: `The service returned no quote for ${key}` })
  }
  return { quotes, problems }
}

async function askBatch(
  client: RestClient,
  route: Route,
  keys: SymbolKey[],
  at: number,
): Promise<Map<SymbolKey, QuoteFields>> {
  const refs = keys.map((k) => parseSymbolKey(k)).filter((r) => r !== null)
  const first = refs[0]
  if (!first) return new Map()
  const { data } = await client.get(route.path, { symbols: refs.map((r) => r.symbol).join(',') })
  const out = new Map<SymbolKey, QuoteFields>()
  for (const u of parseTickerQuotes(data, first.market, at).updates) {
    // Two markets may share a symbol in one multi-market call; the answer cannot tell them apart.
    const owners = refs.filter((r) => r.symbol === u.symbol)
    if (owners.length === 1 && owners[0]) out.set(symbolKey(owners[0].market, u.symbol), u.fields)
  }
  return out
}
