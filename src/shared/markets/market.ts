import { z } from 'zod'

/**
 * Markets as the trader writes them in `market:SYMBOL`. Which endpoint serves each one is decided
 * in src/core (feed routing); this file only names them.
 */
export const MARKETS = [
  'crypto',
  'usdt-futures',
  'futures',
  'fx',
  'commodity',
  'cn',
  'hk',
  'index',
  'agri',
] as const
export const MarketSchema = z.enum(MARKETS)
export type Market = z.infer<typeof MarketSchema>

/**
 * Markets the service serves candles for (spec: Endpoints, tv-futures/kline and agri/kline). The
 * others' bars are built by the engine from live prices, which the chart says (core's klineRoute
 * picks the endpoint; test/contract/candle-endpoints.spec.ts holds the two to the same list).
 */
export const CANDLE_ENDPOINT_MARKETS: readonly Market[] = ['futures', 'agri']

export function hasCandleEndpoint(market: Market): boolean {
  return CANDLE_ENDPOINT_MARKETS.includes(market)
}

export const PLANS = ['free', 'growth', 'pro', 'enterprise'] as const
/** The spec names two plans twice (Limits: "Free / Trial", "Growth / Standard"); case is free. */
const PLAN_ALIASES: Readonly<Record<string, (typeof PLANS)[number]>> = {
  trial: 'free',
  standard: 'growth',
}
export const PlanSchema = z.preprocess((value) => {
  if (typeof value !== 'string') return value
  const name = value.trim().toLowerCase()
  return PLAN_ALIASES[name] ?? name
}, z.enum(PLANS))
export type Plan = z.output<typeof PlanSchema>

/** Plan limits from the interface's Limits section (RPM and WebSocket caps). */
export const PLAN_LIMITS: Record<Plan, { rpm: number; wsConnections: number; wsSymbols: number }> =
  {
    free: { rpm: 30, wsConnections: 1, wsSymbols: 10 },
    growth: { rpm: 120, wsConnections: 3, wsSymbols: 25 },
    pro: { rpm: 600, wsConnections: 10, wsSymbols: 50 },
    enterprise: { rpm: 3000, wsConnections: 50, wsSymbols: 200 },
  }

const SYMBOL_RE = /^[A-Z0-9][A-Z0-9._!/-]{0,31}$/

export interface SymbolRef {
  market: Market
  symbol: string
}

/** A watched instrument's identity everywhere in the app: `market:SYMBOL`, symbol upper-cased. */
export type SymbolKey = string

export function symbolKey(market: Market, symbol: string): SymbolKey {
  return `${market}:${symbol}`
}

/** A key's SYMBOL, as a title or a list of symbols shows it; the whole text when it has no market. */
export function symbolOfKey(key: SymbolKey): string {
  return key.slice(key.indexOf(':') + 1)
}

/** Parses `market:SYMBOL` (case-insensitive market, symbol upper-cased); null when malformed. */
export function parseSymbolKey(input: string): SymbolRef | null {
  const trimmed = input.trim()
  const colon = trimmed.indexOf(':')
  if (colon <= 0) return null
  const market = MarketSchema.safeParse(trimmed.slice(0, colon).toLowerCase())
  if (!market.success) return null
  const symbol = trimmed
    .slice(colon + 1)
    .trim()
    .toUpperCase()
  if (!SYMBOL_RE.test(symbol)) return null
  return { market: market.data, symbol }
}

export const SymbolKeySchema = z
  .string()
  .max(64)
  .refine((s) => parseSymbolKey(s) !== null, { message: 'expected market:SYMBOL' })
  .transform((s) => {
    const ref = parseSymbolKey(s) as SymbolRef
    return symbolKey(ref.market, ref.symbol)
  })
