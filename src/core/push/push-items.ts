import { barCloseTime, normaliseInterval } from '../../shared/intervals'
import type { Market } from '../../shared/markets/market'
import { barFromArray, isZoneless, quoteTime, toEpochMs } from '../bars/bar-time'
import { coerceNumber, pickQuoteFieldsIfAny, type QuoteFields } from '../quotes/quote-fields'
import type { FrameBuffer } from './frame-buffer'
import type { ParsedFrame } from './parsed-frame'
import { KIND_FIELDS, type Kind } from './push-kind'
import { marketNamed, normaliseSymbol } from './push-symbols'
import { plainText } from '../../shared/security/plain-text'

/**
 * The readers of one item of a push (push-parser.ts finds the items and their kinds): its
 * market, symbol and time, and a tick, candle, ack, error or ping built from it.
 */

export type Obj = Record<string, unknown>

/** Keys the stream client learned hold a push's symbol (a service's own: `instrument`, `sym`). */
export interface PushKeys {
  readonly symbolKeys: readonly string[]
}

const NO_FIELDS: QuoteFields = Object.freeze({})
/** A REST envelope's `code` on success ("0", "200", "OK"): a status, never a symbol. */
const STATUS_CODE = /^(0+|200|ok|success)$/i
const TIME_KEYS: ReadonlySet<string> = new Set(['ts', 't', 'time', 'timestamp', 'E'])

export function isErrorShaped(obj: Obj): boolean {
  if (obj.succ === false || obj.success === false) return true
  const err = obj.error
  return typeof err === 'string' || (err !== null && typeof err === 'object')
}

export function readMarket(obj: Obj): Market | null {
  const v = typeof obj.market === 'string' ? obj.market : obj.m
  return typeof v === 'string' ? marketNamed(v) : null
}

/** The item's own market word when it is none of ours (the service's word: a name to try). */
export function unknownTag(obj: Obj, market: Market | null): string | undefined {
  if (market !== null) return undefined
  const v = typeof obj.market === 'string' ? obj.market : obj.m
  return typeof v === 'string' && v !== '' ? v : undefined
}

export function readSymbol(obj: Obj, kind: Kind | null, keys: PushKeys): string | null {
  let v: unknown = obj.symbol
  if (typeof v !== 'string') v = obj.s
  // `code` is the error code on error frames, a status in a REST envelope round a push ("0"),
  // and the instrument code on some services' pushes.
  if (typeof v !== 'string' && kind !== 'error' && typeof obj.code === 'string') {
    const code = obj.code
    if (obj.data === undefined && !isErrorShaped(obj) && !STATUS_CODE.test(code)) v = code
  }
  if (typeof v !== 'string') {
    for (const key of keys.symbolKeys) {
      if (typeof obj[key] !== 'string') continue
      v = obj[key]
      break
    }
  }
  return typeof v === 'string' ? normaliseSymbol(v) : null
}

/** Whether any value other than a time is a number (or a numeric string). */
export function hasNumber(obj: Obj): boolean {
  for (const key in obj) {
    if (TIME_KEYS.has(key)) continue
    if (coerceNumber(obj[key]) !== undefined) return true
  }
  return false
}

/** A reader of one pushed item about a symbol (null: the item named none); what it reads goes to `out`. */
export type ItemReader = (
  obj: Obj,
  symbol: string | null,
  market: Market | null,
  now: number,
  out: FrameBuffer,
) => void

/** A candle opening more than two days ahead is not a candle (a sequence number, a bad clock). */
const MAX_AHEAD_MS = 2 * 86_400_000

/**
 * A tick: its default reading's figures (any subset), its item kept for other readings. A tick
 * with a symbol and numbers under keys of no figure we know is still a tick (its fields empty):
 * which key holds the price is learned against REST (field readings).
 */
export const readTick: ItemReader = (obj, symbol, market, now, out) => {
  if (symbol === null) return out.push({ kind: 'malformed', reason: 'tick without a symbol' })
  const fields = pickQuoteFieldsIfAny(obj)
  if (fields === null && !hasNumber(obj))
    return out.push({ kind: 'malformed', reason: `tick for ${symbol} has no numbers` })
  const time = obj.ts ?? obj.t ?? obj.time ?? obj.timestamp ?? obj.E
  // A wall-clock time is read in the market's zone once the market is known (stream-inbound).
  const local = isZoneless(time)
  const ts = local ? toEpochMs(time) : quoteTime(time, now)
  out.tick(market, symbol, fields ?? NO_FIELDS, ts, obj, local, unknownTag(obj, market))
}

/**
 * One candle or several: the bar under `k`, `data` or `bar`, as an object, an array
 * [openTime, open, high, low, close, volume?, closeTime?], or an array of those.
 */
export const readCandles: ItemReader = (obj, symbol, market, now, out) => {
  if (symbol === null) return out.push({ kind: 'malformed', reason: 'candle without a symbol' })
  const nested = obj.k ?? obj.data ?? obj.bar
  if (Array.isArray(nested)) {
    const rows: unknown[] = nested.length > 0 && Array.isArray(nested[0]) ? nested : [nested]
    for (const row of rows)
      out.push(
        Array.isArray(row)
          ? readCandle(barFromArray(row), obj, symbol, market, now)
          : { kind: 'malformed', reason: `candle for ${symbol} is not a bar` },
      )
    return
  }
  const src = nested !== null && typeof nested === 'object' ? (nested as Obj) : obj
  out.push(readCandle(src, obj, symbol, market, now))
}

function readCandle(
  src: Obj,
  obj: Obj,
  symbol: string,
  market: Market | null,
  now: number,
): ParsedFrame {
  const intervalRaw = src.interval ?? src.i ?? obj.interval ?? obj.period ?? obj.resolution
  const interval =
    typeof intervalRaw === 'string' || typeof intervalRaw === 'number'
      ? normaliseInterval(intervalRaw)
      : null
  const open = coerceNumber(src.open ?? src.o)
  const high = coerceNumber(src.high ?? src.h)
  const low = coerceNumber(src.low ?? src.l)
  const close = coerceNumber(src.close ?? src.c)
  const openRaw = src.openTimeMs ?? src.openTime ?? src.t ?? src.ts ?? src.time
  const openTime = toEpochMs(openRaw)
  if (
    open === undefined ||
    high === undefined ||
    low === undefined ||
    close === undefined ||
    openTime === null ||
    openTime > now + MAX_AHEAD_MS
  ) {
    return { kind: 'malformed', reason: `candle for ${symbol} lacks OHLC or open time` }
  }
  const given = toEpochMs(src.closeTimeMs ?? src.closeTime ?? src.T)
  // Without a known interval there is no length to add: the bar closes where it says, or opens.
  const closeTime =
    interval === null
      ? given !== null && given >= openTime
        ? given
        : openTime
      : barCloseTime(interval, openTime, given)
  const volume = coerceNumber(src.volume ?? src.v) ?? 0
  const bar = { openTime, closeTime, open, high, low, close, volume }
  // A wall-clock time is moved into the market's zone once the market is known (stream-inbound).
  if (isZoneless(openRaw)) return { kind: 'candle', market, symbol, interval, bar, local: true }
  return { kind: 'candle', market, symbol, interval, bar }
}

/**
 * Answers in the frame's own dialect: {event:'ping'} → {event:'pong'}, echoing any id/ts. A
 * service that writes its pings under another key than the client's messages use may read its
 * answers as client messages are written (spec: WebSocket stream, the `action` field), so the
 * answer carries `action: 'pong'` too.
 */
export function pingReply(obj: Obj): string {
  const reply: Obj = {}
  for (const field of KIND_FIELDS) {
    if (typeof obj[field] === 'string') {
      reply[field] = 'pong'
      break
    }
  }
  reply.action = 'pong'
  if (obj.id !== undefined) reply.id = obj.id
  if (obj.ts !== undefined) reply.ts = obj.ts
  return JSON.stringify(reply)
}

function readStrings(v: unknown): string[] {
  if (typeof v === 'string')
    return v.length > 0 ? v.split(',').map((s) => s.trim().toUpperCase()) : []
  if (!Array.isArray(v)) return []
  const out: string[] = []
  for (const s of v) if (typeof s === 'string' && s.length > 0) out.push(s.trim().toUpperCase())
  return out
}

export function readSubscribed(obj: Obj, market: Market | null): ParsedFrame {
  const symbols = readStrings(obj.symbols ?? obj.symbol ?? obj.args)
  return { kind: 'subscribed', market: readMarket(obj) ?? market, symbols }
}

export function readError(obj: Obj): ParsedFrame {
  const err = obj.error
  const errObj =
    err !== null && typeof err === 'object' && !Array.isArray(err) ? (err as Obj) : null
  const codeRaw = obj.code ?? errObj?.code ?? (typeof err === 'string' ? err : undefined)
  // Plain text only: the service's words reach logs, pages and terminals (plain-text.ts).
  const code =
    typeof codeRaw === 'string' && plainText(codeRaw, 64).length > 0
      ? plainText(codeRaw, 64)
      : typeof codeRaw === 'number'
        ? `${codeRaw}`
        : 'UNSPECIFIED'
  const msgRaw = obj.msg ?? obj.message ?? errObj?.message ?? errObj?.msg
  const message = typeof msgRaw === 'string' ? plainText(msgRaw) : code
  const symbols = readStrings(obj.symbols ?? errObj?.symbols ?? obj.symbol)
  return { kind: 'error', code, message, symbols }
}
