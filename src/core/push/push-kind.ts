/**
 * Which kind of push a frame or item is (push-parser.ts): the kind lives in `type`, `event`, `e`,
 * `channel`, `op` or `action` (the first one we recognise wins), and names may carry a suffix or
 * prefix (`kline_1m`, `ticker.BTCUSDT`, `btcusdt@ticker`).
 */
export type Kind =
  'tick' | 'candle' | 'ping' | 'heartbeat' | 'pong' | 'subscribed' | 'error' | 'other'
type Obj = Record<string, unknown>

const KIND_BY_NAME = new Map<string, Kind>([
  ['tick', 'tick'],
  ['ticks', 'tick'],
  ['ticker', 'tick'],
  ['tickers', 'tick'],
  ['24hrticker', 'tick'],
  ['quote', 'tick'],
  ['quotes', 'tick'],
  ['trade', 'tick'],
  ['trades', 'tick'],
  ['candle', 'candle'],
  ['candles', 'candle'],
  ['kline', 'candle'],
  ['klines', 'candle'],
  ['bar', 'candle'],
  ['bars', 'candle'],
  ['ping', 'ping'],
  ['heartbeat', 'heartbeat'],
  ['hb', 'heartbeat'],
  ['pong', 'pong'],
  ['subscribe', 'subscribed'],
  ['subscribed', 'subscribed'],
  ['sub', 'subscribed'],
  ['error', 'error'],
  ['err', 'error'],
  // Known but not ours to act on: unsubscribe acks, welcome/info banners.
  ['unsubscribe', 'other'],
  ['unsubscribed', 'other'],
  ['welcome', 'other'],
  ['info', 'other'],
  ['connected', 'other'],
])
export const KIND_FIELDS = ['type', 'event', 'e', 'channel', 'op', 'action'] as const
const SUFFIX_SEPARATORS = ['_', '.', ':', '@', '-', '/']

export function readKind(obj: Obj): Kind | null {
  // KIND_FIELDS in order, as plain property reads: this runs on every item of a batch, and a
  // loop of keyed reads `obj[field]` goes megamorphic where these stay inline-cache hits.
  return (
    kindOf(obj.type) ??
    kindOf(obj.event) ??
    kindOf(obj.e) ??
    kindOf(obj.channel) ??
    kindOf(obj.op) ??
    kindOf(obj.action)
  )
}

function kindOf(v: unknown): Kind | null {
  if (typeof v !== 'string' || v.length === 0) return null
  const name = v.toLowerCase()
  return KIND_BY_NAME.get(name) ?? kindByPrefix(name)
}

/** `kline_1m`, `ticker.BTCUSDT`, `btcusdt@ticker`: the kind is one part of a compound name. */
function kindByPrefix(name: string): Kind | null {
  for (const sep of SUFFIX_SEPARATORS) {
    const at = name.indexOf(sep)
    if (at <= 0) continue
    const head = KIND_BY_NAME.get(name.slice(0, at))
    if (head !== undefined) return head
    const tail = KIND_BY_NAME.get(name.slice(name.lastIndexOf(sep) + 1))
    if (tail !== undefined) return tail
  }
  return null
}
