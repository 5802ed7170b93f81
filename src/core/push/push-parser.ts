import { barCloseTime, normaliseInterval } from '../../shared/intervals'
import type { Market } from '../../shared/markets/market'
import { MARKETS } from '../../shared/markets/market'
import { marketAlias } from '../stream/market-aliases'
import { quoteTime, toEpochMs } from '../bars/bar-time'
import { coerceNumber, pickQuoteFieldsIfAny } from '../quotes/quote-fields'
import { KIND_FIELDS, readKind, type Kind } from './push-kind'
import { FrameBuffer } from './frame-buffer'
import { plainText } from '../../shared/plain-text'
import type { ParsedFrame } from './parsed-frame'

export { FrameBuffer }

/**
 * Turns one WebSocket text frame into normalised events.
 *
 * The interface (spec: Events, WebSocket stream) says the service pushes ticks and candles but
 * leaves the push shapes, the heartbeat style and unsubscribe "not shown", so this parser accepts
 * the plausible variants instead of one guessed shape:
 * - the kind lives in `type`, `event`, `e`, `channel`, `op` or `action` (first one we recognise
 *   wins, so `{channel:'ticker', type:'update'}` is a tick); names may carry a suffix
 *   (`kline_1m`, `ticker.BTCUSDT`);
 * - a frame is one object, an array of objects, or an envelope `{data: [...] | {...}}` whose
 *   kind and market apply to the items;
 * - numbers may be strings; symbol in `symbol`/`s`/`code`, market in `market`/`m`, time in
 *   `ts`/`t`/`time`/`timestamp`/`E` (bar-time.ts reads the unit; never ahead of receive time);
 * - a candle's interval is any alias of shared/intervals and its missing close follows the one
 *   bar rule there, as for REST bars.
 * Unknown shapes are `ignored`; wrong types are `malformed`. It never throws: a frame from the
 * network must not be able to crash the engine.
 *
 * Hot path (>= 100k ticks/s): one JSON.parse per frame, no closures or regexes per tick.
 */
export type { ParsedFrame } from './parsed-frame'

type Obj = Record<string, unknown>

const MARKET_SET: ReadonlySet<string> = new Set(MARKETS)

const IGNORED: ParsedFrame = { kind: 'ignored' }
const PONG: ParsedFrame = { kind: 'pong' }
const HEARTBEAT: ParsedFrame = { kind: 'ping', reply: null }

/** Parses one frame; `now` is the receive time, used only to sanity-check timestamps. */
export function parseFrame(
  text: string | Buffer | ArrayBuffer | Buffer[],
  now: number,
  into?: FrameBuffer,
): ParsedFrame[] {
  const raw = frameText(text)
  // Plain-text heartbeats exist in the wild (`ping` / `pong`); they are not JSON.
  if (raw.length <= 6) {
    const bare = raw.trim().toLowerCase()
    if (bare === 'ping') return [{ kind: 'ping', reply: 'pong' }]
    if (bare === 'pong') return [PONG]
  }
  let value: unknown
  try {
    value = JSON.parse(raw)
  } catch {
    return [{ kind: 'malformed', reason: 'invalid JSON' }]
  }
  const out = into ?? new FrameBuffer()
  out.reset()
  if (Array.isArray(value)) {
    for (const item of value) parseItem(item, null, null, now, out, 0)
  } else {
    parseItem(value, null, null, now, out, 0)
  }
  if (out.frames.length === 0) out.push(IGNORED)
  return out.frames
}

/** A frame's bytes as the socket gave them (push-scan.ts reads these; no string is decoded). */
export function frameBytes(data: Buffer | ArrayBuffer | Buffer[]): Uint8Array {
  return Buffer.isBuffer(data)
    ? data
    : Array.isArray(data)
      ? Buffer.concat(data)
      : new Uint8Array(data)
}

/** A message as `ws` delivers it (one Buffer, fragments, or an ArrayBuffer) as text. */
export function frameText(text: string | Buffer | ArrayBuffer | Buffer[]): string {
  return typeof text === 'string'
    ? text
    : Buffer.isBuffer(text)
      ? text.toString('utf8')
      : Array.isArray(text)
        ? Buffer.concat(text).toString('utf8')
        : Buffer.from(text).toString('utf8')
}

function parseItem(
  item: unknown,
  inheritedKind: Kind | null,
  inheritedMarket: Market | null,
  now: number,
  out: FrameBuffer,
  depth: number,
): void {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) {
    out.push({ kind: 'malformed', reason: 'expected an object' })
    return
  }
  const obj = item as Obj
  const market = readMarket(obj) ?? inheritedMarket
  const own = readKind(obj)
  // Huobi-style `{ping: 123}` → `{pong: 123}`.
  if (own === null && obj.ping !== undefined && depth === 0) {
    out.push({ kind: 'ping', reply: JSON.stringify({ pong: obj.ping }) })
    return
  }
  // Error envelopes: REST-style {succ:false, code} or an `error` object/string without a kind.
  // A failed subscribe ack ({event:'subscribe', success:false, code}) is an error frame.
  const errorShaped = isErrorShaped(obj)
  const kind =
    own === 'subscribed' && errorShaped ? 'error' : (own ?? (errorShaped ? 'error' : inheritedKind))

  const data = obj.data
  const symbol = readSymbol(obj, kind)
  if (
    data !== null &&
    typeof data === 'object' &&
    symbol === null &&
    depth < 2 &&
    kind !== 'error'
  ) {
    if (kind === 'subscribed') {
      out.push(readSubscribed(data as Obj, market))
      return
    }
    if (Array.isArray(data)) {
      for (const child of data) parseItem(child, kind, market, now, out, depth + 1)
    } else {
      parseItem(data, kind, market, now, out, depth + 1)
    }
    return
  }

  switch (kind) {
    case 'tick':
      readTick(obj, symbol, market, now, out)
      return
    case 'candle':
      out.push(readCandle(obj, symbol, market, now))
      return
    case 'ping':
      out.push({ kind: 'ping', reply: pingReply(obj) })
      return
    case 'heartbeat':
      out.push(HEARTBEAT)
      return
    case 'pong':
      out.push(PONG)
      return
    case 'subscribed':
      out.push(readSubscribed(obj, market))
      return
    case 'error':
      out.push(readError(obj))
      return
    case 'other':
      out.push(IGNORED)
      return
    case null:
      // No kind anywhere: infer from the payload (a symbol with prices is a tick).
      if (symbol !== null) {
        if (obj.interval !== undefined || obj.openTime !== undefined || obj.k !== undefined) {
          out.push(readCandle(obj, symbol, market, now))
          return
        }
        const fields = pickQuoteFieldsIfAny(obj)
        if (fields !== null) {
          out.tick(market, symbol, fields, readTs(obj, now), undefined, unknownTag(obj, market))
          return
        }
      }
      out.push(IGNORED)
  }
}

function isErrorShaped(obj: Obj): boolean {
  if (obj.succ === false || obj.success === false) return true
  const err = obj.error
  return typeof err === 'string' || (err !== null && typeof err === 'object')
}

function readMarket(obj: Obj): Market | null {
  const v = typeof obj.market === 'string' ? obj.market : obj.m
  return typeof v === 'string' ? marketNamed(v) : null
}

/** The item's own market word when it is none of ours (the service's word: a name to try). */
function unknownTag(obj: Obj, market: Market | null): string | undefined {
  if (market !== null) return undefined
  const v = typeof obj.market === 'string' ? obj.market : obj.m
  return typeof v === 'string' && v !== '' ? v : undefined
}

/** A pushed market name as ours, or null (push-scan.ts reads it the same way). */
export function marketNamed(v: string): Market | null {
  // Most pushes already use our lower-case names: skip the toLowerCase copy for them.
  if (MARKET_SET.has(v)) return v as Market
  const lower = v.toLowerCase()
  return MARKET_SET.has(lower) ? (lower as Market) : marketAlias(v)
}

function readSymbol(obj: Obj, kind: Kind | null): string | null {
  const v =
    typeof obj.symbol === 'string'
      ? obj.symbol
      : typeof obj.s === 'string'
        ? obj.s
        : // `code` is the error code on error frames, the instrument code on pushes.
          kind !== 'error' && typeof obj.code === 'string' && !isErrorShaped(obj)
          ? obj.code
          : null
  return v === null ? null : normaliseSymbol(v)
}

/** A pushed symbol as ours (trimmed, upper case), or null (push-scan.ts reads it the same way). */
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

/** The tick's own time, capped at receive time; null makes the store use receive time. */
function readTs(obj: Obj, now: number): number | null {
  return quoteTime(obj.ts ?? obj.t ?? obj.time ?? obj.timestamp ?? obj.E, now)
}

/** A candle opening more than two days ahead is not a candle (a sequence number, a bad clock). */
const MAX_AHEAD_MS = 2 * 86_400_000

function readTick(
  obj: Obj,
  symbol: string | null,
  market: Market | null,
  now: number,
  out: FrameBuffer,
): void {
  if (symbol === null) return out.push({ kind: 'malformed', reason: 'tick without a symbol' })
  const fields = pickQuoteFieldsIfAny(obj)
  if (fields === null) out.push({ kind: 'malformed', reason: `tick for ${symbol} has no numbers` })
  else out.tick(market, symbol, fields, readTs(obj, now), undefined, unknownTag(obj, market))
}

function readCandle(
  obj: Obj,
  symbol: string | null,
  market: Market | null,
  now: number,
): ParsedFrame {
  if (symbol === null) return { kind: 'malformed', reason: 'candle without a symbol' }
  // Binance-style pushes nest the bar under `k`, with the interval inside it.
  const k = obj.k
  const src = k !== null && typeof k === 'object' && !Array.isArray(k) ? (k as Obj) : obj
  const intervalRaw = src.interval ?? src.i ?? obj.interval ?? obj.period ?? obj.resolution
  const interval =
    typeof intervalRaw === 'string' || typeof intervalRaw === 'number'
      ? normaliseInterval(intervalRaw)
      : null
  const open = coerceNumber(src.open ?? src.o)
  const high = coerceNumber(src.high ?? src.h)
  const low = coerceNumber(src.low ?? src.l)
  const close = coerceNumber(src.close ?? src.c)
  const openTime = toEpochMs(src.openTimeMs ?? src.openTime ?? src.t ?? src.ts ?? src.time)
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
  return {
    kind: 'candle',
    market,
    symbol,
    interval,
    bar: { openTime, closeTime, open, high, low, close, volume },
  }
}

/** Answers in the frame's own dialect: {event:'ping'} → {event:'pong'}, echoing any id/ts. */
function pingReply(obj: Obj): string {
  const reply: Obj = {}
  for (const field of KIND_FIELDS) {
    if (typeof obj[field] === 'string') {
      reply[field] = 'pong'
      break
    }
  }
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

function readSubscribed(obj: Obj, market: Market | null): ParsedFrame {
  const symbols = readStrings(obj.symbols ?? obj.symbol ?? obj.args)
  return { kind: 'subscribed', market: readMarket(obj) ?? market, symbols }
}

function readError(obj: Obj): ParsedFrame {
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
