import { MARKETS, type Market } from '../../shared/markets/market'

const OURS: ReadonlySet<string> = new Set(MARKETS)

/**
 * The service's own words for our markets, as the stream is subscribed under them
 * (stream-market-names.ts): a push tagged "futures_usdt" then routes to usdt-futures even when
 * crypto streams a symbol of the same name (push-parser marketNamed reads them). Process-wide: a
 * word names one market on any service.
 */
const ALIASES = new Map<string, Market>()

/** Bumped on every change: a push scanner's cached market word is read afresh after one. */
export let aliasGeneration = 0

/** True when the word's meaning changed (a cached reading of it is now wrong: push-scan). */
export function aliasMarketName(name: string, market: Market): boolean {
  if (OURS.has(name) || ALIASES.get(name) === market) return false
  ALIASES.set(name, market)
  aliasGeneration++
  return true
}

export function marketAlias(name: string): Market | null {
  return ALIASES.get(name) ?? null
}
