import type { Market } from '../../shared/markets/market'
import { FrameBuffer } from './frame-buffer'
import { frameText } from './frame-text'
import { readKind, type Kind } from './push-kind'
import {
  hasNumber,
  isErrorShaped,
  pingReply,
  readCandles,
  readError,
  readMarket,
  readSubscribed,
  readSymbol,
  readTick,
  unknownTag,
  type Obj,
  type PushKeys,
} from './push-items'
import type { ParsedFrame } from './parsed-frame'

export { FrameBuffer }
export type { ParsedFrame } from './parsed-frame'
export type { PushKeys } from './push-items'

/**
 * Turns one WebSocket text frame into normalised events.
 *
 * The interface (spec: Events, WebSocket stream) says the service pushes ticks and candles but
 * leaves the push shapes, the heartbeat style and unsubscribe "not shown", so this parser reads
 * a frame's structure, not one guessed shape:
 * - the kind lives in `type`, `event`, `e`, `channel`, `op` or `action` (push-kind.ts);
 * - a frame is one object, an array of objects, or an envelope `{data: [...] | {...}}` whose
 *   kind and market apply to the items: the stream's own, or the REST envelope (`succ`, `code`,
 *   `msg`) wrapped round a push, whose `code` ("0") is a status, not a symbol;
 * - numbers may be strings; symbol in `symbol`/`s`/`code` or a key the stream client learned
 *   (PushKeys), market in `market`/`m`, time in `ts`/`t`/`time`/`timestamp`/`E`;
 * - a tick keeps its item (`raw`): which key holds which figure is read per market afterwards
 *   (field readings, checked against REST), `fields` is the default reading's;
 * - an item of no known kind with no symbol key we know is an `item`: the stream client looks
 *   for a wanted symbol among its values;
 * - a candle's bar is an object or an array, one or several (push-items.ts).
 * Unknown shapes are `ignored`; wrong types are `malformed`. It never throws: a frame from the
 * network must not be able to crash the engine.
 *
 * Hot path (>= 100k ticks/s): one JSON.parse per frame, no closures or regexes per tick.
 */

const IGNORED: ParsedFrame = { kind: 'ignored' }
const PONG: ParsedFrame = { kind: 'pong' }
const HEARTBEAT: ParsedFrame = { kind: 'ping', reply: null }
const NO_KEYS: PushKeys = { symbolKeys: [] }
/** Envelopes nest: a push inside a REST envelope inside a batch is as deep as they go. */
const MAX_DEPTH = 3

/** Parses one frame; `now` is the receive time, used only to sanity-check timestamps. */
export function parseFrame(
  text: string | Buffer | ArrayBuffer | Buffer[],
  now: number,
  into?: FrameBuffer,
  keys: PushKeys = NO_KEYS,
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
  const reader = READER.begin(now, out, keys)
  if (Array.isArray(value)) {
    for (const item of value) reader.item(item, null, null, 0)
  } else {
    reader.item(value, null, null, 0)
  }
  if (out.frames.length === 0) out.push(IGNORED)
  return out.frames
}

/**
 * One frame's reading: where it writes and what it knows, as fields rather than arguments
 * passed down every level. One reader serves every parse (a parse never re-enters).
 */
class ItemReader {
  private now = 0
  private out: FrameBuffer = new FrameBuffer()
  private keys: PushKeys = NO_KEYS

  begin(now: number, out: FrameBuffer, keys: PushKeys): this {
    this.now = now
    this.out = out
    this.keys = keys
    return this
  }

  item(item: unknown, inheritedKind: Kind | null, inherited: Market | null, depth: number): void {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      this.out.push({ kind: 'malformed', reason: 'expected an object' })
      return
    }
    const obj = item as Obj
    const market = readMarket(obj) ?? inherited
    const own = readKind(obj)
    // Huobi-style `{ping: 123}` → `{pong: 123}`.
    if (own === null && obj.ping !== undefined && depth === 0) {
      this.out.push({ kind: 'ping', reply: JSON.stringify({ pong: obj.ping }) })
      return
    }
    const kind = itemKind(obj, own, inheritedKind)
    const symbol = readSymbol(obj, kind, this.keys)
    if (
      kind !== 'error' &&
      symbol === null &&
      depth < MAX_DEPTH &&
      this.envelope(obj, kind, market, depth)
    )
      return
    this.read(obj, kind, symbol, market)
  }

  /** An envelope round the items: true when `data` was read as them. */
  private envelope(obj: Obj, kind: Kind | null, market: Market | null, depth: number): boolean {
    const data = obj.data
    if (data === null || typeof data !== 'object') return false
    if (kind === 'subscribed') {
      if (!Array.isArray(data)) this.out.push(readSubscribed(data as Obj, market))
      else this.out.push(readSubscribed(obj, market))
      return true
    }
    if (kind === 'candle' && Array.isArray(data) && !data.some(isObject)) return false
    if (Array.isArray(data)) for (const child of data) this.item(child, kind, market, depth + 1)
    else this.item(data, kind, market, depth + 1)
    return true
  }

  private read(obj: Obj, kind: Kind | null, symbol: string | null, market: Market | null): void {
    const out = this.out
    switch (kind) {
      case 'tick':
        return readTick(obj, symbol, market, this.now, out)
      case 'candle':
        return readCandles(obj, symbol, market, this.now, out)
      case 'ping':
        return out.push({ kind: 'ping', reply: pingReply(obj) })
      case 'heartbeat':
        return out.push(HEARTBEAT)
      case 'pong':
        return out.push(PONG)
      case 'subscribed':
        return out.push(readSubscribed(obj, market))
      case 'error':
        return out.push(readError(obj))
      case 'other':
        return out.push(IGNORED)
      case null:
        return this.unkinded(obj, symbol, market)
    }
  }

  /** No kind anywhere: inferred from the payload (a symbol with prices is a tick). */
  private unkinded(obj: Obj, symbol: string | null, market: Market | null): void {
    const out = this.out
    if (symbol !== null) {
      if (obj.interval !== undefined || obj.openTime !== undefined || obj.k !== undefined)
        return readCandles(obj, symbol, market, this.now, out)
      if (hasNumber(obj)) return readTick(obj, symbol, market, this.now, out)
      return out.push(IGNORED)
    }
    // A symbol under a key nobody told us: the stream client looks among its values.
    if (hasNumber(obj))
      return out.push({ kind: 'item', market, raw: obj, tag: unknownTag(obj, market) })
    out.push(IGNORED)
  }
}

const READER = new ItemReader()

/** The item's kind: its own, an error shape, or its envelope's. */
function itemKind(obj: Obj, own: Kind | null, inherited: Kind | null): Kind | null {
  // Error envelopes: REST-style {succ:false, code} or an `error` object/string without a kind.
  // A failed subscribe ack ({event:'subscribe', success:false, code}) is an error frame.
  const errorShaped = isErrorShaped(obj)
  if (own === 'subscribed' && errorShaped) return 'error'
  return own ?? (errorShaped ? 'error' : inherited)
}

function isObject(v: unknown): boolean {
  return v !== null && typeof v === 'object' && !Array.isArray(v)
}
