import type { Market } from '../shared/market'
import { QUOTE_FIGURES } from '../shared/quote'
import { quoteTime } from './bar-time'
import { KIND_FIELDS, readKind } from './push-kind'
import { marketNamed, normaliseSymbol, type FrameBuffer } from './push-parser'
import { FIGURE_BITS } from './packed-figures'
import { newSymbolRef, type SymbolRef } from './symbol-slot'

/**
 * The hot push dialect read straight from the frame's bytes, without JSON.parse: a batch
 * `{"event":"ticker","data":[{"symbol":"X","market":"crypto","last":1.5,…,"ts":…},…]}` as
 * JSON.stringify writes it (no whitespace, no escapes). At 10k ticks/s JSON.parse and its
 * objects were ~15% of the host's CPU, half of it V8 internalising keys and short strings
 * (README, issue 25): here keys are matched in place, numbers read from their digits and symbols
 * found in a small table, and a tick's figures stay packed in numbers (packed-figures.ts): no
 * object per tick. It reads the socket's UTF-8 bytes, not a decoded string: a scanned frame is
 * never decoded, and a byte read costs less than charCodeAt, which checks the string's
 * representation on every read (the scan: ~640 -> ~445 ns a tick, render bench's feed,
 * micro-benchmark). Anything outside printable ASCII is a byte above 0x7e here: declined too.
 *
 * It fills `out` with the ticks parseFrame would make (a scanned tick's `fields` unpacks to
 * parseFrame's object), or declines (returns false, `out` to be refilled
 * by parseFrame) on anything else: another kind or key, a key twice, a string with an escape or
 * outside printable ASCII, a quoted number, null, a number that is not finite, whitespace, an
 * item parseFrame would call malformed. test/fuzz/push-scan.spec.ts checks the two agree.
 */
export function scanTickBatch(text: Bytes, now: number, out: FrameBuffer): boolean {
  cur.raw = text
  cur.pos = 0
  out.reset()
  if (!scanEnvelopeHead(text)) return false
  if ((text[cur.pos] as number) === RBRACKET) return false // an empty batch: parseFrame says ignored
  for (;;) {
    if (!scanItem(text, now, out)) return false
    const c = text[cur.pos++] as number
    if (c === COMMA) continue
    // `]}` and the end: JSON.parse would reject trailing bytes, and whitespace is declined.
    return c === RBRACKET && (text[cur.pos] as number) === RBRACE && cur.pos + 1 === text.length
  }
}

/** A frame's UTF-8 bytes: the socket's own buffer, so no string is decoded for a scanned frame. */
export type Bytes = Uint8Array
const NO_BYTES: Bytes = new Uint8Array(0)
const DATA_HEAD = ',"data":['

/** Whether `raw` holds the ASCII text `s` at `at` (startsWith, on bytes). */
function bytesAt(raw: Bytes, at: number, s: string): boolean {
  const n = s.length
  if (at + n > raw.length) return false
  for (let i = 0; i < n; i++) if ((raw[at + i] as number) !== s.charCodeAt(i)) return false
  return true
}

const utf8 = new TextDecoder()

/** The bytes [start, end) as a string: printable ASCII, the scan has checked each of them. */
function ascii(raw: Bytes, start: number, end: number): string {
  return utf8.decode(raw.subarray(start, end))
}

// Where the scan is: one object's field, so the helpers share it without closures or
// module-level `let` (whose every read V8 checks for the temporal dead zone).
const cur = { raw: NO_BYTES, pos: 0 }

const QUOTE = 0x22
const COMMA = 0x2c
const COLON = 0x3a
const LBRACE = 0x7b
const RBRACE = 0x7d
const RBRACKET = 0x5d
const MINUS = 0x2d
const DOT = 0x2e
const ZERO = 0x30
const NINE = 0x39
const BACKSLASH = 0x5c

/** `{"<kind field>":"<a tick kind>","data":[` — the one envelope read here. */
function scanEnvelopeHead(raw: Bytes): boolean {
  if ((raw[0] as number) !== LBRACE) return false
  const keyStart = 2
  const keyEnd = stringEnd(raw, 1)
  if (keyEnd < 0 || (raw[keyEnd + 1] as number) !== COLON) return false
  const valueStart = keyEnd + 3
  const valueEnd = stringEnd(raw, keyEnd + 2)
  if (valueEnd < 0 || !isTickKind(raw, keyStart, keyEnd, valueStart, valueEnd)) return false
  if (!bytesAt(raw, valueEnd + 1, DATA_HEAD)) return false
  cur.pos = valueEnd + 10
  return true
}

// The last envelope head seen to name a tick kind: the same head arrives on every frame.
const lastHead = { key: '', value: '' }

function isTickKind(
  raw: Bytes,
  keyStart: number,
  keyEnd: number,
  valueStart: number,
  valueEnd: number,
): boolean {
  const { key, value } = lastHead
  if (
    keyEnd - keyStart === key.length &&
    valueEnd - valueStart === value.length &&
    key.length > 0 &&
    bytesAt(raw, keyStart, key) &&
    bytesAt(raw, valueStart, value)
  )
    return true
  const k = ascii(raw, keyStart, keyEnd)
  if (!(KIND_FIELDS as readonly string[]).includes(k)) return false
  const v = ascii(raw, valueStart, valueEnd)
  if (readKind({ [k]: v }) !== 'tick') return false
  lastHead.key = k
  lastHead.value = v
  return true
}

/**
 * The index of the closing quote of the string opening at `at`, or -1 when there is none or
 * the string holds an escape or anything outside printable ASCII.
 */
function stringEnd(raw: Bytes, at: number): number {
  if ((raw[at] as number) !== QUOTE) return -1
  for (let i = at + 1; i < raw.length; i++) {
    const c = raw[i] as number
    if (c === QUOTE) return i
    if (c < 0x20 || c > 0x7e || c === BACKSLASH) return -1
  }
  return -1
}

/**
 * The keys an item may have: a quote field under its own name (QUOTE_FIGURES, in
 * pickQuoteFieldsIfAny's order, which is also the packed figures' order), then the
 * symbol, market and time. Any other key could be an alias, a kind or an error marker: declined.
 */
const FIELD_KEYS = QUOTE_FIGURES
const SYMBOL = FIELD_KEYS.length
const MARKET = SYMBOL + 1
const TS = SYMBOL + 2
const KEYS: readonly string[] = [...FIELD_KEYS, 'symbol', 'market', 'ts']

// The keys of the previous item in their order: items of one feed share it, so the n-th key is
// first looked for where the previous item had it, as its whole `"name":`.
const lastOrder: number[] = []
const KEY_HEADS: readonly string[] = KEYS.map((k) => `"${k}":`)

/** Which of KEYS the key at [start, end) is, or -1. */
function keyAt(raw: Bytes, start: number, end: number): number {
  const len = end - start
  for (let k = 0; k < KEYS.length; k++) {
    const name = KEYS[k] as string
    if (name.length === len && bytesAt(raw, start, name)) return k
  }
  return -1
}

// One item's numbers by KEYS index; `seen` has bit k set when key k was read.
const values = new Float64Array(KEYS.length)

function scanItem(raw: Bytes, now: number, out: FrameBuffer): boolean {
  let pos = cur.pos
  if ((raw[pos++] as number) !== LBRACE) return false
  let seen = 0
  let symbol: string | null = null
  let ref: SymbolRef | undefined
  let market: Market | null = null
  for (let n = 0; ; n++) {
    // The key where the previous item had it, `"name":` compared in one go; else looked up.
    const guess = lastOrder[n]
    let k: number
    if (guess !== undefined && bytesAt(raw, pos, KEY_HEADS[guess] as string)) {
      k = guess
      pos += (KEY_HEADS[guess] as string).length
    } else {
      const keyEnd = stringEnd(raw, pos)
      if (keyEnd < 0 || (raw[keyEnd + 1] as number) !== COLON) return false
      k = keyAt(raw, pos + 1, keyEnd)
      if (k < 0) return false
      lastOrder[n] = k
      pos = keyEnd + 2
    }
    if ((seen & (1 << k)) !== 0) return false
    seen |= 1 << k
    if (k === SYMBOL) {
      pos = scanSymbol(raw, pos)
      if (pos < 0) return false
      symbol = scanned.symbol
      ref = scanned.ref
    } else if (k === MARKET) {
      pos = scanMarket(raw, pos)
      if (pos < 0) return false
      market = scanned.market
    } else {
      pos = scanNumber(raw, pos)
      const v = scanned.number
      if (pos < 0 || v !== v || v === Infinity || v === -Infinity) return false
      values[k] = v
    }
    const c = raw[pos++] as number
    if (c === RBRACE) break
    if (c !== COMMA) return false
  }
  cur.pos = pos
  // No symbol or no numbers: parseFrame calls the item malformed; let it say so.
  if (symbol === null || (seen & FIGURE_BITS) === 0) return false
  const ts = (seen & (1 << TS)) !== 0 ? quoteTime(values[TS], now) : null
  // The figures go packed (packed-figures.ts): no fields object per tick.
  out.scanned(market, symbol, seen, values, ts, ref)
  return true
}

// What the last scanSymbol, scanMarket or scanNumber read (they return the position after it).
const scanned: {
  symbol: string | null
  ref: SymbolRef | undefined
  market: Market | null
  number: number
} = {
  symbol: null,
  ref: undefined,
  market: null,
  number: 0,
}

// Raw symbol spans seen lately, their normalised forms and handles (symbol-slot.ts), by a hash
// of the span's characters: a hit costs no string and no Map look-up, and its handle saves the
// route's and the store's. A collision only overwrites the slot.
const SYMBOL_SLOTS = 1024
const SYMBOL_PROBES = 4
const slotRaw: string[] = new Array<string>(SYMBOL_SLOTS).fill('')
const slotSymbol: (string | null)[] = new Array<string | null>(SYMBOL_SLOTS).fill(null)
const slotRef: (SymbolRef | undefined)[] = new Array<SymbolRef | undefined>(SYMBOL_SLOTS)

/** Reads the symbol string at `at`, normalised as parseFrame does; the position after, or -1. */
function scanSymbol(raw: Bytes, at: number): number {
  if ((raw[at] as number) !== QUOTE) return -1
  const start = at + 1
  let h = 0x811c9dc5
  for (let i = start; i < raw.length; i++) {
    const c = raw[i] as number
    if (c === QUOTE) {
      const len = i - start
      const home = (h >>> 0) & (SYMBOL_SLOTS - 1)
      // Linear probing over a few slots: with one slot per hash, ~8% of a 200-symbol feed
      // collided and its symbols kept evicting each other (a new string and handle per tick).
      let free = -1
      for (let p = 0; p < SYMBOL_PROBES; p++) {
        const slot = (home + p) & (SYMBOL_SLOTS - 1)
        const known = slotRaw[slot] as string
        if (known.length === 0) {
          free = slot
          break
        }
        if (known.length === len && bytesAt(raw, start, known)) {
          scanned.symbol = slotSymbol[slot] as string | null
          scanned.ref = slotRef[slot]
          return scanned.symbol === null ? -1 : i + 1
        }
      }
      const slot = free < 0 ? home : free
      const text = ascii(raw, start, i)
      const symbol = normaliseSymbol(text)
      scanned.symbol = symbol
      scanned.ref = symbol === null ? undefined : newSymbolRef(symbol)
      // An empty span is never stored: '' marks a free slot.
      if (len > 0) {
        slotRaw[slot] = text
        slotSymbol[slot] = symbol
        slotRef[slot] = scanned.ref
      }
      return scanned.symbol === null ? -1 : i + 1
    }
    if (c < 0x20 || c > 0x7e || c === BACKSLASH) return -1
    h = Math.imul(h ^ c, 16777619)
  }
  return -1
}

// The last market name read and what it means: one or two names per stream.
const lastMarket: { raw: string; value: Market | null } = { raw: '', value: null }

/** A market word's meaning changed (push-parser aliasMarketName): read the next one afresh. */
export function forgetScannedMarket(): void {
  lastMarket.raw = ''
}

/** Reads the market string at `at` as parseFrame does; the position after, or -1. */
function scanMarket(raw: Bytes, at: number): number {
  const end = stringEnd(raw, at)
  if (end < 0) return -1
  const start = at + 1
  const len = end - start
  if (len !== lastMarket.raw.length || len === 0 || !bytesAt(raw, start, lastMarket.raw)) {
    lastMarket.raw = ascii(raw, start, end)
    lastMarket.value = marketNamed(lastMarket.raw)
  }
  scanned.market = lastMarket.value
  return end + 1
}

const POW10: readonly number[] = Array.from({ length: 23 }, (_, i) => 10 ** i)

/**
 * Reads the JSON number at `at` into scanned.number; the position after it, or -1. Up to 15
 * significant digits and 22 decimals it is digits / 10^decimals: both exact doubles, so the one
 * division rounds correctly, as JSON.parse does. Longer numbers and exponents go through
 * Number(), which rounds the same way.
 */
function scanNumber(raw: Bytes, at: number): number {
  let i = at
  let c = raw[i] as number
  const negative = c === MINUS
  if (negative) c = raw[++i] as number
  if (c < ZERO || c > NINE) return -1
  let mantissa = 0
  let digits = 0
  let decimals = 0
  if (c === ZERO) {
    c = raw[++i] as number
    if (c >= ZERO && c <= NINE) return -1 // a leading zero: not JSON
  } else {
    while (c >= ZERO && c <= NINE) {
      mantissa = mantissa * 10 + (c - ZERO)
      digits++
      c = raw[++i] as number
    }
  }
  if (c === DOT) {
    c = raw[++i] as number
    if (c < ZERO || c > NINE) return -1
    while (c >= ZERO && c <= NINE) {
      mantissa = mantissa * 10 + (c - ZERO)
      if (mantissa !== 0) digits++
      decimals++
      c = raw[++i] as number
    }
  }
  if (c === 0x65 || c === 0x45) {
    // An exponent: rare in pushes, checked here and converted by Number().
    c = raw[++i] as number
    if (c === 0x2b || c === MINUS) c = raw[++i] as number
    if (c < ZERO || c > NINE) return -1
    while (c >= ZERO && c <= NINE) c = raw[++i] as number
    scanned.number = Number(ascii(raw, at, i))
    return i
  }
  if (digits > 15 || decimals > 22) {
    scanned.number = Number(ascii(raw, at, i))
    return i
  }
  const v = decimals === 0 ? mantissa : mantissa / (POW10[decimals] as number)
  scanned.number = negative ? -v : v
  return i
}
