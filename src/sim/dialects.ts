import type { SimMarket } from './market/instruments'
import type { SimBar } from './market/price-walk'
import {
  batchHead,
  layoutTick,
  singleKind,
  type ItemFormat,
  type PushLayout,
  type TickPush,
} from './push-layouts'
import { wireNumber, wireTime, type NumberFormat, type Spelling } from './wire-format'

export type { TickPush } from './push-layouts'

/**
 * Wire dialects: the spec leaves push shapes, bar time format, heartbeat and out-of-range
 * handling "not shown" (Events; Resources: Bar; Errors), so the sim can speak several plausible
 * variants and the client is tested against all of them: three named dialects, and per reading
 * a switch (push layouts: push-layouts.ts; numbers, times and symbol spellings: wire-format.ts).
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
   * How pushes name their market (spec: WebSocket stream, field market, e.g. "the crypto market";
   * names not shown): the client's own words (default), the service's own ("spot", "futures_usdt",
   * ...: market-names.ts), which a client can only match by symbol, or not at all. ServiceBehaviour
   * .marketNames 'service' turns the service's words on with the rest of its naming.
   */
  pushMarkets?: 'client' | 'service' | 'none'
  /** Which keys a tick push is written under (push-layouts.ts); default 'sim'. */
  layout?: PushLayout
  /** Push numbers as strings with thousands separators ("84,012.5"). */
  groupedNumbers?: boolean
  /** Push and bar times as the venue's wall clock without an offset ("2026-11-27T17:30:00"). */
  localTimes?: boolean
  /** Symbols on the stream as asked, "BTC-USDT" (dashed), or "600519.SH", "700.HK" (venue). */
  spelling?: Spelling
  /** Each push frame inside the REST envelope: {"succ":true,"code":"0","msg":"ok","data":…}. */
  envelope?: boolean
  /** Candle pushes carry their bar as an array [openTime, open, high, low, close, volume]. */
  candleArrays?: boolean
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

export interface CandlePush {
  symbol: string
  market: SimMarket
  interval: string
  bar: SimBar
}

type WireValue = string | number

/** Bar fields in the dialect's time format (iso/epoch-s: openTime, epoch-ms: openTimeMs). */
export function formatBar(
  d: Dialect,
  bar: SimBar,
  market: SimMarket = 'crypto',
): Record<string, WireValue> {
  const out: Record<string, WireValue> = {}
  if (d.barTime === 'epoch-ms' && d.localTimes !== true) {
    out.openTimeMs = bar.openTime
    out.closeTimeMs = bar.closeTime
  } else {
    const format = d.localTimes === true ? 'iso-local' : d.barTime
    out.openTime = wireTime(bar.openTime, format, market)
    out.closeTime = wireTime(bar.closeTime, format, market)
  }
  out.open = bar.open
  out.high = bar.high
  out.low = bar.low
  out.close = bar.close
  out.volume = bar.volume
  return out
}

function numberFormat(d: Dialect): NumberFormat {
  return d.groupedNumbers === true ? 'grouped' : d.numbersAsStrings ? 'string' : 'number'
}

/** The market word pushes carry under this dialect, from the word the service uses for it. */
export function pushWord(d: Dialect, market: SimMarket, serviceWord: string): string | null {
  if (d.pushMarkets === 'none') return null
  return d.pushMarkets === 'service' ? serviceWord : market
}

function frames(
  d: Dialect,
  items: Record<string, unknown>[],
  single: Record<string, unknown>,
  head: Record<string, unknown>,
): string[] {
  if (items.length === 0) return []
  const wrap = (obj: unknown): string =>
    JSON.stringify(d.envelope === true ? { succ: true, code: '0', msg: 'ok', data: obj } : obj)
  if (d.push === 'single') return items.map((i) => wrap({ ...single, ...i }))
  return [wrap({ ...head, data: items })]
}

/** The frames carrying these ticks; `word` names a market as the service does. */
export function tickFrames(
  d: Dialect,
  ticks: readonly TickPush[],
  word: (market: SimMarket) => string = (m) => m,
): string[] {
  const layout = d.layout ?? 'sim'
  const items = ticks.map((t) => {
    const format: ItemFormat = {
      numbers: numberFormat(d),
      times: d.localTimes === true ? 'iso-local' : 'epoch-ms',
      spelling: d.spelling ?? 'asked',
      marketWord: pushWord(d, t.market, word(t.market)),
    }
    return layoutTick(layout, t, format)
  })
  return frames(d, items, singleKind(layout), batchHead(layout))
}

export function candleFrames(
  d: Dialect,
  candles: readonly CandlePush[],
  word: (market: SimMarket) => string = (m) => m,
): string[] {
  if (d.candleArrays === true) return candles.map((c) => JSON.stringify(candleArray(d, c, word)))
  const format = numberFormat(d)
  const items = candles.map((c) => {
    const marketWord = pushWord(d, c.market, word(c.market))
    const bar = formatBar(d, c.bar, c.market)
    for (const k of ['open', 'high', 'low', 'close', 'volume'])
      bar[k] = wireNumber(bar[k] as number, format)
    return {
      symbol: c.symbol,
      ...(marketWord === null ? {} : { market: marketWord }),
      interval: c.interval,
      ...bar,
    }
  })
  return frames(d, items, { type: 'candle' }, { event: 'kline' })
}

/** {"event":"kline","symbol":…,"interval":"1m","data":[[openTime, o, h, l, c, v]]}. */
function candleArray(
  d: Dialect,
  c: CandlePush,
  word: (market: SimMarket) => string,
): Record<string, unknown> {
  const marketWord = pushWord(d, c.market, word(c.market))
  const b = c.bar
  return {
    event: 'kline',
    symbol: c.symbol,
    ...(marketWord === null ? {} : { market: marketWord }),
    interval: c.interval,
    data: [[b.openTime, b.open, b.high, b.low, b.close, b.volume]],
  }
}

export function controlFrame(event: string, fields: Record<string, unknown> = {}): string {
  return JSON.stringify({ event, ...fields })
}
