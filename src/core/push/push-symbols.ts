import { MARKETS, type Market } from '../../shared/markets/market'
import { marketAlias } from '../stream/market-aliases'

/**
 * The words of a push that name things: its market and its symbol, as ours. The push scanner
 * (push-scan.ts) and the parser (push-parser.ts) read them the same way, through these.
 */

const MARKET_SET: ReadonlySet<string> = new Set(MARKETS)

/** A pushed market name as ours, or null. */
export function marketNamed(v: string): Market | null {
  // Most pushes already use our lower-case names: skip the toLowerCase copy for them.
  if (MARKET_SET.has(v)) return v as Market
  const lower = v.toLowerCase()
  return MARKET_SET.has(lower) ? (lower as Market) : marketAlias(v)
}

/** A pushed symbol as ours (trimmed, upper case), or null. */
export function normaliseSymbol(v: string): string | null {
  const seen = NORMALISED_SYMBOLS.get(v)
  if (seen !== undefined) return seen
  const trimmed = v.trim()
  const symbol = trimmed.length === 0 || trimmed.length > 32 ? null : trimmed.toUpperCase()
  // The same few hundred symbols arrive on every frame: remember their normalised form
  // (bench/ingest), bounded so a hostile stream of random names cannot grow it without limit.
  if (NORMALISED_SYMBOLS.size >= 4096) NORMALISED_SYMBOLS.clear()
  NORMALISED_SYMBOLS.set(v, symbol)
  return symbol
}

const NORMALISED_SYMBOLS = new Map<string, string | null>()

/**
 * Exchange suffixes of the markets the spec names (A-shares: Shanghai, Shenzhen, Beijing; Hong
 * Kong). Only these: a class share's ".B" (BRK.B) is part of its name, not a venue.
 */
const VENUE_SUFFIX = /\.(SH|SS|SZ|BJ|HK)$/
/** What a perpetual's name may end in on other services ("BTC-USDT-SWAP", "BTCUSDT_PERP"). */
const CONTRACT_SUFFIX = /[-_/ ](SWAP|PERP|PERPETUAL)$/
const SEPARATORS = /[-_/ ]/g

/**
 * A symbol's spelling with what services write differently taken out, so "BTC-USDT", "btc_usdt"
 * and "BTC/USDT" meet "BTCUSDT", "600519.SH" meets "600519", "700.HK" meets "00700", and
 * "OANDA:EURUSD" meets "EURUSD". Two symbols with one key are told apart by nothing here: the
 * subscription book maps a pushed spelling to a wanted symbol only when exactly one has its key.
 */
export function spellingKey(symbol: string): string {
  let s = symbol.trim().toUpperCase()
  s = s.slice(s.lastIndexOf(':') + 1)
  s = s.replace(VENUE_SUFFIX, '').replace(CONTRACT_SUFFIX, '').replace(SEPARATORS, '')
  // Stock codes are numbers padded to the venue's width (HK 5, A-shares 6): compare the number.
  return /^\d+$/.test(s) ? s.replace(/^0+(?=\d)/, '') : s
}
