import { isSimMarket } from './market/instruments'
import { SERVICE_MARKETS } from './market-names'
import type { SimBar } from './market/price-walk'

/**
 * Wire dialects: the spec leaves push shapes, bar time format, heartbeat and out-of-range
 * handling "not shown" (Events; Resources: Bar; Errors), so the sim can speak several plausible
 * variants and the client is tested against all of them.
 *
 * Fixed across dialects: control frames (subscribed, unsubscribed, error, ping, pong) always
 * use the `event` key, e.g. {"event":"error","code":"WS_CONN_LIMIT","message":"…"}; REST numbers
 * are always JSON numbers. Data pushes are single ({"type":"tick",…}, {"type":"candle",…}) or
 * batch ({"event":"ticker","data":[…]}, {"event":"kline","data":[…]}).
 */

export type DialectName = 'typed' | 'evented' | 'compact'

export interface Dialect {
  push: 'single' | 'batch'
  numbersAsStrings: boolean
  barTime: 'iso' | 'epoch-s' | 'epoch-ms'
  heartbeat: 'ws-ping' | 'app-ping'
  outOfRange: 'reject' | 'clamp'
  /**
   * How pushes name their market (spec: field market, e.g. "the crypto market"; names not
   * shown): the client's own words (default), or the service's own ("spot", "futures_usdt", ...:
   * market-names.ts), which a client can only match by symbol. ServiceBehaviour.marketNames
   * 'service' turns this on with the rest of the service's naming.
   */
  pushMarkets?: 'client' | 'service'
}

export const DIALECTS: Record<DialectName, Dialect> = {
  typed: {
    push: 'single',
    numbersAsStrings: false,
    barTime: 'epoch-ms',
    heartbeat: 'ws-ping',
    outOfRange: 'reject',
  },
  evented: {
    push: 'batch',
    numbersAsStrings: true,
    barTime: 'iso',
    heartbeat: 'app-ping',
    outOfRange: 'clamp',
  },
  compact: {
    push: 'batch',
    numbersAsStrings: false,
    barTime: 'epoch-s',
    heartbeat: 'app-ping',
    outOfRange: 'reject',
  },
}

export function isDialectName(value: string): value is DialectName {
  return Object.hasOwn(DIALECTS, value)
}

export function resolveDialect(d: DialectName | Dialect | undefined): Dialect {
  if (d === undefined) return DIALECTS.typed
  return typeof d === 'string' ? DIALECTS[d] : d
}

/** One tick as pushed; fields other than symbol, market, last and ts may be missing. */
export interface TickPush {
  symbol: string
  market: string
  last: number
  bid?: number
  ask?: number
  volume?: number
  change?: number
  changePercent?: number
  ts: number
}

export interface CandlePush {
  symbol: string
  market: string
  interval: string
  bar: SimBar
}

type WireValue = string | number

/** Bar fields in the dialect's time format (iso/epoch-s: openTime, epoch-ms: openTimeMs). */
export function formatBar(d: Dialect, bar: SimBar): Record<string, WireValue> {
  const out: Record<string, WireValue> = {}
  if (d.barTime === 'epoch-ms') {
    out.openTimeMs = bar.openTime
    out.closeTimeMs = bar.closeTime
  } else if (d.barTime === 'epoch-s') {
    out.openTime = Math.floor(bar.openTime / 1000)
    out.closeTime = Math.floor(bar.closeTime / 1000)
  } else {
    out.openTime = new Date(bar.openTime).toISOString()
    out.closeTime = new Date(bar.closeTime).toISOString()
  }
  out.open = bar.open
  out.high = bar.high
  out.low = bar.low
  out.close = bar.close
  out.volume = bar.volume
  return out
}

const TIME_FIELDS = new Set(['ts', 'openTime', 'closeTime', 'openTimeMs', 'closeTimeMs'])

/** Prices and sizes become strings in string dialects; times stay as the bar format says. */
function wireNumbers(d: Dialect, obj: Record<string, unknown>): Record<string, unknown> {
  if (!d.numbersAsStrings) return obj
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(obj)) {
    out[k] = typeof v === 'number' && !TIME_FIELDS.has(k) ? String(v) : v
  }
  return out
}

function pushFrames(
  d: Dialect,
  kind: 'tick' | 'candle',
  items: Record<string, unknown>[],
): string[] {
  if (items.length === 0) return []
  const shaped = items.map((i) => wireNumbers(d, i))
  if (d.push === 'single') return shaped.map((i) => JSON.stringify({ type: kind, ...i }))
  return [JSON.stringify({ event: kind === 'tick' ? 'ticker' : 'kline', data: shaped })]
}

function pushMarket(d: Dialect, market: string): string {
  return d.pushMarkets === 'service' && isSimMarket(market) ? SERVICE_MARKETS[market] : market
}

export function tickFrames(d: Dialect, ticks: TickPush[]): string[] {
  return pushFrames(
    d,
    'tick',
    ticks.map((t) => ({ ...t, market: pushMarket(d, t.market) })),
  )
}

export function candleFrames(d: Dialect, candles: CandlePush[]): string[] {
  return pushFrames(
    d,
    'candle',
    candles.map((c) => ({
      symbol: c.symbol,
      market: pushMarket(d, c.market),
      interval: c.interval,
      ...formatBar(d, c.bar),
    })),
  )
}

export function controlFrame(event: string, fields: Record<string, unknown> = {}): string {
  return JSON.stringify({ event, ...fields })
}
