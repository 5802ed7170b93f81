import type { Market } from '../markets/market'

/**
 * Figures as a trader reads them (the grid, the strip, the tiles, and the host's cached snapshot
 * of the list, which is why this lives in shared). A price shows the decimals its instrument
 * quotes in (its price scale, i.e. its tick size), never padded: XRP at 0.6154 with a change of
 * -0.0105, not 0.615400 and -0.010500. The service does not publish tick sizes, so the scale is
 * learned from the prices it sends (the most decimals seen for the instrument, float noise
 * ignored), above a floor by market and magnitude that keeps a round price (84,000.00) aligned.
 */

export const MISSING = '—'

/** The most decimals any price is shown with (a sub-cent token). */
const MAX_DECIMALS = 8

/** Decimals a price at this magnitude is quoted in at least (FX majors 4, JPY pairs 3). */
function floorDecimals(market: Market, symbol: string, abs: number): number {
  switch (market) {
    case 'fx':
      return symbol.includes('JPY') ? 3 : 4
    case 'index':
      return 2
    case 'cn':
      return abs < 1 ? 3 : 2
    case 'hk':
      // HKEX tick sizes go down to 0.001 for low-priced shares.
      return abs < 10 ? 3 : 2
    default:
      if (abs >= 10) return 2
      if (abs >= 1) return 3
      if (abs >= 0.1) return 4
      if (abs >= 0.01) return 5
      return 6
  }
}

/** Decimal places of a price as the service sent it, ignoring float noise (0.1 + 0.2). */
export function decimalsOf(value: number): number {
  let x = Math.abs(value)
  let d = 0
  while (d < MAX_DECIMALS && Math.abs(x - Math.round(x)) > 1e-9 * Math.max(1, x)) {
    x *= 10
    d++
  }
  return d
}

/** The price scale learned per market and symbol (nested maps: no key string per tick). */
const learned = new Map<Market, Map<string, number>>()

/** Decimals to show a price of this instrument with; every price shown teaches its scale. */
export function pricePrecision(market: Market, symbol: string, value: number): number {
  let bySymbol = learned.get(market)
  if (bySymbol === undefined) learned.set(market, (bySymbol = new Map()))
  const seen = Math.max(bySymbol.get(symbol) ?? 0, decimalsOf(value))
  bySymbol.set(symbol, seen)
  return Math.max(floorDecimals(market, symbol, Math.abs(value)), seen)
}

const formatters = new Map<number, Intl.NumberFormat>()
function fixed(decimals: number): Intl.NumberFormat {
  let f = formatters.get(decimals)
  if (!f) {
    f = new Intl.NumberFormat('en-US', {
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
    })
    formatters.set(decimals, f)
  }
  return f
}

export function formatPrice(
  value: number | null | undefined,
  market: Market,
  symbol: string,
): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return MISSING
  return fixed(pricePrecision(market, symbol, value)).format(value)
}

/** A signed price change at the same precision as the price it changes (judged by `ref`). */
export function formatChange(
  value: number | null | undefined,
  market: Market,
  symbol: string,
  ref: number | null | undefined,
): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return MISSING
  const decimals = pricePrecision(market, symbol, ref ?? value)
  const text = fixed(decimals).format(Math.abs(value))
  return `${value > 0 ? '+' : value < 0 ? '−' : ''}${text}`
}

export function formatPercent(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return MISSING
  const text = fixed(2).format(Math.abs(value))
  return `${value > 0 ? '+' : value < 0 ? '−' : ''}${text}%`
}

const UNITS: Array<[number, string]> = [
  [1e12, 'T'],
  [1e9, 'B'],
  [1e6, 'M'],
  [1e3, 'K'],
]

/** A large number in three significant figures with its unit: 1.25M, 12.5K, 125B. */
export function formatCompact(value: number): string {
  const abs = Math.abs(value)
  for (const [size, unit] of UNITS) {
    if (abs >= size) {
      const scaled = abs / size
      const text = `${fixed(scaled >= 100 ? 0 : scaled >= 10 ? 1 : 2).format(value / size)}${unit}`
      // 999.96K rounds up to "1,000.0K": say 1.00M instead.
      return scaled >= 999.5 && size < 1e12 ? formatCompact(Math.sign(value) * size * 1000) : text
    }
  }
  return fixed(Math.abs(value) >= 100 || Number.isInteger(value) ? 0 : 2).format(value)
}

/**
 * Volumes, turnover, trade counts and order sizes: abbreviated from a thousand up (1.25M), whole
 * numbers as they are, fractions (a 0.0512 BTC bid size) in three significant figures.
 */
export function formatAmount(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return MISSING
  const abs = Math.abs(value)
  if (abs >= 1000 || Number.isInteger(value)) return formatCompact(value)
  if (abs >= 1) return fixed(abs >= 100 ? 0 : 2).format(value)
  if (abs === 0) return '0'
  const decimals = Math.min(8, Math.max(2, 2 - Math.floor(Math.log10(abs))))
  return fixed(decimals).format(value)
}
