import type { Market } from '../shared/market'
import type { Quote } from '../shared/quote'

/** The price fields a REST snapshot or a push may carry; any subset (pushes are often partial). */
export const QUOTE_FIELDS = [
  'last',
  'change',
  'changePercent',
  'open',
  'high',
  'low',
  'prevClose',
  'volume',
  'quoteVolume',
  'bid',
  'ask',
  'bidSize',
  'askSize',
] as const
export type QuoteField = (typeof QUOTE_FIELDS)[number]
export type QuoteFields = Partial<Record<QuoteField, number>>

/** One normalised update from either transport, before it is merged into the QuoteStore. */
export interface QuoteUpdate {
  market: Market
  symbol: string
  fields: QuoteFields
  /** Epoch ms of the data when the service said; null to use receive time. */
  ts: number | null
  source: Exclude<Quote['source'], 'cache'>
}

/** Services send numbers as numbers or as strings; anything else (NaN, '', objects) is absent. */
export function coerceNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value)
    return Number.isFinite(n) ? n : undefined
  }
  return undefined
}

/** Names other services use for the same fields (hoisted: this runs on every tick). */
const ALIASES: Record<string, QuoteField> = {
  price: 'last',
  p: 'last',
  lastPrice: 'last',
  close: 'last',
  c: 'last',
  chg: 'change',
  priceChange: 'change',
  changePct: 'changePercent',
  pct: 'changePercent',
  priceChangePercent: 'changePercent',
  vol: 'volume',
  v: 'volume',
  bidPrice: 'bid',
  askPrice: 'ask',
  b: 'bid',
  a: 'ask',
  prev: 'prevClose',
  previousClose: 'prevClose',
}
const ALIAS_ENTRIES = Object.entries(ALIASES)

const IS_QUOTE_FIELD: Readonly<Record<string, boolean>> = Object.assign(
  Object.create(null) as Record<string, boolean>,
  Object.fromEntries(QUOTE_FIELDS.map((f) => [f, true])),
)
const IS_ALIAS: Readonly<Record<string, boolean>> = Object.assign(
  Object.create(null) as Record<string, boolean>,
  Object.fromEntries(Object.keys(ALIASES).map((a) => [a, true])),
)

/**
 * Picks the known quote fields out of an untrusted object, tolerating common aliases. A field's
 * own name beats any alias; among aliases the first in ALIASES wins.
 *
 * Hot path (bench/ingest): one pass over the object's own keys (a push has ~6-10) instead of
 * probing all 13 names and 18 aliases; the alias pass runs only when an alias key is present.
 */
export function pickQuoteFields(raw: Record<string, unknown>): QuoteFields {
  const out: QuoteFields = {}
  let sawAlias = false
  for (const name in raw) {
    if (IS_QUOTE_FIELD[name] === true) {
      const v = coerceNumber(raw[name])
      if (v !== undefined) out[name as QuoteField] = v
    } else if (IS_ALIAS[name] === true) sawAlias = true
  }
  if (!sawAlias) return out
  for (const [alias, field] of ALIAS_ENTRIES) {
    if (out[field] !== undefined) continue
    const v = coerceNumber(raw[alias])
    if (v !== undefined) out[field] = v
  }
  return out
}
