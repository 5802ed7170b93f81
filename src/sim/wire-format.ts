import type { SimMarket } from './market/instruments'

/**
 * How a service may write the values of a push (spec: Events, push shapes "not shown"): numbers
 * as JSON numbers, strings, or strings with thousands separators; times as epoch ms, epoch
 * seconds, ISO 8601 in UTC, or the venue's wall clock without an offset; symbols as the client
 * asked for them or in the venue's own spelling.
 */

/** The venues' own zones, where their wall-clock times are read (a fact of the venue). */
export const VENUE_ZONES: Readonly<Record<SimMarket, string>> = {
  crypto: 'UTC',
  'usdt-futures': 'UTC',
  futures: 'America/Chicago',
  fx: 'America/New_York',
  commodity: 'America/Chicago',
  cn: 'Asia/Shanghai',
  hk: 'Asia/Hong_Kong',
  index: 'America/New_York',
  agri: 'America/Chicago',
}

export type NumberFormat = 'number' | 'string' | 'grouped'

/** A price or size as the dialect writes it: "84012.5", "84,012.5" or 84012.5. */
export function wireNumber(v: number, format: NumberFormat): number | string {
  if (format === 'number') return v
  if (format === 'string') return String(v)
  const [whole, frac] = String(Math.abs(v)).split('.')
  const grouped = (whole ?? '0').replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  return `${v < 0 ? '-' : ''}${grouped}${frac === undefined ? '' : `.${frac}`}`
}

export type TimeFormat = 'epoch-ms' | 'epoch-s' | 'iso' | 'iso-local'

/** An instant as the dialect writes it; 'iso-local' is the venue's wall clock, no offset. */
export function wireTime(at: number, format: TimeFormat, market: SimMarket): number | string {
  if (format === 'epoch-ms') return at
  if (format === 'epoch-s') return Math.floor(at / 1000)
  if (format === 'iso') return new Date(at).toISOString()
  return wallClock(at, VENUE_ZONES[market])
}

const wallFormats = new Map<string, Intl.DateTimeFormat>()

/** "2026-11-27T17:30:00.000": the zone's wall clock at `at`, without an offset. */
function wallClock(at: number, timeZone: string): string {
  let f = wallFormats.get(timeZone)
  if (f === undefined) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
    wallFormats.set(timeZone, f)
  }
  const p: Record<string, string> = {}
  for (const part of f.formatToParts(at)) p[part.type] = part.value
  const ms = String(((at % 1000) + 1000) % 1000).padStart(3, '0')
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}.${ms}`
}

export type Spelling = 'asked' | 'dashed' | 'venue'

const QUOTE_CURRENCIES = ['USDT', 'USDC', 'BTC', 'ETH']
const VENUE_SUFFIX: Partial<Record<SimMarket, (symbol: string) => string>> = {
  cn: (s) => `${s}.${s.startsWith('6') ? 'SH' : 'SZ'}`,
  hk: (s) => `${s.replace(/^0+(?=\d)/, '')}.HK`,
}

/** The symbol as the dialect spells it: "BTC-USDT" (dashed), "600519.SH", "700.HK" (venue). */
export function wireSymbol(symbol: string, market: SimMarket, spelling: Spelling): string {
  if (spelling === 'venue') return VENUE_SUFFIX[market]?.(symbol) ?? symbol
  if (spelling === 'dashed' && (market === 'crypto' || market === 'usdt-futures')) {
    const quote = QUOTE_CURRENCIES.find((q) => symbol.endsWith(q) && symbol.length > q.length)
    return quote === undefined ? symbol : `${symbol.slice(0, -quote.length)}-${quote}`
  }
  return symbol
}
