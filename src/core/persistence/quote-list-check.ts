import { MARKETS } from '../../shared/markets/market'
import { QUOTE_FIGURES, QuoteSourceSchema, type Quote } from '../../shared/quote'

const MARKET_NAMES: ReadonlySet<unknown> = new Set(MARKETS)
const SOURCES: ReadonlySet<unknown> = new Set(QuoteSourceSchema.options)
const finite = (v: unknown): boolean => typeof v === 'number' && Number.isFinite(v)

/**
 * What QuoteSchema would refuse in a list of quotes, read in place: null when every quote holds.
 * The quote cache is saved every 30 s, 5000 quotes at the largest watch; parsing it with the
 * schema copies every quote (about 12 MB of garbage a save in a host whose young generation is
 * 3 MB). Loading still parses with the schema (stores.ts); quote-list-check.spec.ts holds this
 * to the schema's verdict on good and damaged lists.
 */
export function quoteListProblem(quotes: unknown): string | null {
  if (!Array.isArray(quotes)) return 'not a list'
  for (let i = 0; i < quotes.length; i++) {
    const problem = quoteProblem(quotes[i])
    if (problem !== null) return `${i}.${problem}`
  }
  return null
}

function quoteProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not an object'
  const q = value as Record<keyof Quote, unknown>
  if (typeof q.key !== 'string') return 'key'
  if (!MARKET_NAMES.has(q.market)) return 'market'
  if (typeof q.symbol !== 'string') return 'symbol'
  for (const figure of QUOTE_FIGURES) {
    const v = q[figure]
    if (v !== null && !finite(v)) return figure
  }
  if (!finite(q.ts)) return 'ts'
  if (!finite(q.receivedAt)) return 'receivedAt'
  if (!SOURCES.has(q.source)) return 'source'
  if (typeof q.stale !== 'boolean') return 'stale'
  if (q.lastIsMid !== undefined && typeof q.lastIsMid !== 'boolean') return 'lastIsMid'
  return null
}
