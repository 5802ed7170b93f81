import type { Market } from '../../shared/markets/market'
import { checkFigureTable, QUOTE_FIGURES } from '../../shared/quote'
import { quoteTime } from '../bars/bar-time'
import { aliasGeneration } from '../stream/market-aliases'
import type { FrameBuffer } from './frame-buffer'
import { ZERO_IS_NONE } from './packed-figures'
import { KIND_FIELDS, readKind } from './push-kind'
import { marketNamed, normaliseSymbol } from './push-symbols'
import { newSymbolRef, type SymbolRef } from './symbol-ref'
import { bytesAt, KeyHeads, type Bytes } from './frame-bytes'

const DATA_HEAD = ',"data":['

const utf8 = new TextDecoder()

/** The bytes [start, end) as a string: printable ASCII, the scan has checked each of them. */
function ascii(raw: Bytes, start: number, end: number): string {
  return utf8.decode(raw.subarray(start, end))
}

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

// Raw symbol spans seen lately, their normalised forms and handles (symbol-ref.ts), by a hash
// of the span's characters: a hit costs no string and no Map look-up, and its handle saves the
// route's and the store's. A collision only overwrites the slot.
const SYMBOL_SLOTS = 1024
const SYMBOL_PROBES = 4

const POW10: readonly number[] = Array.from({ length: 23 }, (_, i) => 10 ** i)

/**
 * The hot push dialects read straight from the frame's bytes, without JSON.parse: a batch
 * `{"event":"ticker","data":[{"symbol":"X","market":"crypto","last":1.5,…,"ts":…},…]}`, or one
 * tick a frame `{"type":"tick","symbol":"X",…}`, as JSON.stringify writes them (no whitespace, no
 * escapes). At 10k ticks/s JSON.parse and its objects were ~15% of the host's CPU, half of it V8
 * internalising keys and short strings (render bench): here keys are matched in place, numbers
 * read from their digits and symbols found in a small table, and a tick's figures stay packed
 * (packed-figures.ts): no object per tick. It reads the socket's UTF-8 bytes: a scanned frame is
 * never decoded, and a byte read costs less than charCodeAt (the scan: ~640 -> ~445 ns a tick,
 * render bench's feed). Anything outside printable ASCII is a byte above 0x7e: declined too.
 *
 * It fills `out` with the ticks parseFrame would make (a scanned tick's `fields` unpacks to
 * parseFrame's object), or declines (false, `out` to be refilled by parseFrame) on anything
 * else: another kind or key, a key twice, a string with an escape or outside printable ASCII, a
 * quoted number, null, a number that is not finite, whitespace, an item parseFrame would call
 * malformed. test/fuzz/push-scan.spec.ts checks the two agree.
 *
 * One scanner a stream client (InboundFrames keeps it): its caches (the last envelope head, key
 * order and market, the symbol slots) follow one feed. Its keys come from the figure table
 * (shared/quote.ts QUOTE_FIGURES) and three more.
 */
export class PushScanner {
  // Where the scan is: a field of the scanner, so its parts share it without closures.
  private pos = 0
  // The last envelope head seen to name a tick kind: the same head arrives on every frame.
  private headKey = ''
  private headValue = ''
  /**
   * The keys an item may have: a figure under its own name (the table's order, which is also
   * pickQuoteFieldsIfAny's and the packed figures'), then the symbol, market and time. Any other
   * key could be an alias, a kind or an error marker: declined.
   */
  private readonly keys: readonly string[]
  private readonly keyHeads: KeyHeads
  /** A view of the frame being scanned, for KeyHeads' word loads. */
  private view: DataView = new DataView(new ArrayBuffer(0))
  private readonly symbolKey: number
  private readonly marketKey: number
  private readonly tsKey: number
  private readonly figureBits: number
  /** The figures a 0 leaves absent (packed-figures.ts ZERO_IS_NONE), as parseFrame reads them. */
  private readonly zeroBits: number
  // The keys of the previous item in their order: items of one feed share it, so the n-th key
  // is first looked for where the previous item had it, as its whole `"name":`.
  private readonly lastOrder: number[] = []
  // One item's numbers by key index; `seen` has bit k set when key k was read.
  private readonly values: Float64Array
  // What the last scanSymbol, scanMarket or scanNumber read (they return the position after it).
  private symbol: string | null = null
  private ref: SymbolRef | undefined = undefined
  private market: Market | null = null
  private number = 0
  private readonly slotRaw: string[] = new Array<string>(SYMBOL_SLOTS).fill('')
  private readonly slotSymbol: (string | null)[] = new Array<string | null>(SYMBOL_SLOTS).fill(null)
  private readonly slotRef: (SymbolRef | undefined)[] = new Array<SymbolRef | undefined>(
    SYMBOL_SLOTS,
  )
  // The last market name read and what it means: one or two names per stream.
  private marketRaw = ''
  private marketValue: Market | null = null
  private aliasGeneration = -1

  /** `figures`: the figure table (a test passes an extended one). */
  constructor(figures: readonly string[] = QUOTE_FIGURES) {
    checkFigureTable(figures)
    this.keys = [...figures, 'symbol', 'market', 'ts']
    this.keyHeads = new KeyHeads(this.keys.map((k) => `"${k}":`))
    this.symbolKey = figures.length
    this.marketKey = figures.length + 1
    this.tsKey = figures.length + 2
    this.figureBits = (2 ** figures.length - 1) | 0
    let zeroBits = 0
    for (const [i, name] of figures.entries())
      if ((ZERO_IS_NONE as readonly string[]).includes(name)) zeroBits |= 1 << i
    this.zeroBits = zeroBits
    this.values = new Float64Array(this.keys.length)
  }

  /** Scans one frame into `out`; false when it declines (parseFrame then reads the frame). */
  scan(text: Bytes, now: number, out: FrameBuffer): boolean {
    this.pos = 0
    this.view = new DataView(text.buffer, text.byteOffset, text.byteLength)
    out.reset()
    const afterKind = this.scanKindHead(text)
    if (afterKind < 0) return false
    if (!bytesAt(text, afterKind, DATA_HEAD)) {
      // One tick a frame, its kind its first key: read as a batch's item (parseFrame too).
      if ((text[afterKind] as number) !== COMMA) return false
      this.pos = afterKind + 1
      return this.scanFields(text, now, out) && this.pos === text.length
    }
    this.pos = afterKind + DATA_HEAD.length
    if ((text[this.pos] as number) === RBRACKET) return false // an empty batch: parseFrame says ignored
    for (;;) {
      if ((text[this.pos++] as number) !== LBRACE || !this.scanFields(text, now, out)) return false
      const c = text[this.pos++] as number
      if (c === COMMA) continue
      // `]}` and the end: JSON.parse would reject trailing bytes, and whitespace is declined.
      return c === RBRACKET && (text[this.pos] as number) === RBRACE && this.pos + 1 === text.length
    }
  }

  /**
   * `{"<kind field>":"<a tick kind>"`, the head of both frames read here (then `,"data":[` for a
   * batch, or the tick's other keys): the position after it, or -1.
   */
  private scanKindHead(raw: Bytes): number {
    if ((raw[0] as number) !== LBRACE) return -1
    const keyStart = 2
    const keyEnd = stringEnd(raw, 1)
    if (keyEnd < 0 || (raw[keyEnd + 1] as number) !== COLON) return -1
    const valueStart = keyEnd + 3
    const valueEnd = stringEnd(raw, keyEnd + 2)
    if (valueEnd < 0 || !this.isTickKind(raw, keyStart, keyEnd, valueStart, valueEnd)) return -1
    return valueEnd + 1
  }

  private isTickKind(
    raw: Bytes,
    keyStart: number,
    keyEnd: number,
    valueStart: number,
    valueEnd: number,
  ): boolean {
    const key = this.headKey
    const value = this.headValue
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
    this.headKey = k
    this.headValue = v
    return true
  }

  /** Which of the keys the key at [start, end) is, or -1. */
  private keyAt(raw: Bytes, start: number, end: number): number {
    const len = end - start
    const keys = this.keys
    for (let k = 0; k < keys.length; k++) {
      const name = keys[k] as string
      if (name.length === len && bytesAt(raw, start, name)) return k
    }
    return -1
  }

  /** An item's keys and values after its `{`, to its `}`: one tick into `out`, or false. */
  private scanFields(raw: Bytes, now: number, out: FrameBuffer): boolean {
    let pos = this.pos
    const lastOrder = this.lastOrder
    const keyHeads = this.keyHeads
    const view = this.view
    const end = raw.length
    const values = this.values
    let seen = 0
    let zeros = 0
    let symbol: string | null = null
    let ref: SymbolRef | undefined
    let market: Market | null = null
    let tag: string | undefined
    for (let n = 0; ; n++) {
      // The key where the previous item had it, `"name":` compared in one go; else looked up.
      const guess = lastOrder[n]
      const headLength = guess === undefined ? 0 : keyHeads.at(view, end, pos, guess)
      let k: number
      if (headLength !== 0) {
        k = guess as number
        pos += headLength
      } else {
        const keyEnd = stringEnd(raw, pos)
        if (keyEnd < 0 || (raw[keyEnd + 1] as number) !== COLON) return false
        k = this.keyAt(raw, pos + 1, keyEnd)
        if (k < 0) return false
        lastOrder[n] = k
        pos = keyEnd + 2
      }
      if ((seen & (1 << k)) !== 0) return false
      seen |= 1 << k
      if (k === this.symbolKey) {
        pos = this.scanSymbol(raw, pos)
        if (pos < 0) return false
        symbol = this.symbol
        ref = this.ref
      } else if (k === this.marketKey) {
        pos = this.scanMarket(raw, pos)
        if (pos < 0) return false
        market = this.market
        if (market === null && this.marketRaw !== '') tag = this.marketRaw
      } else {
        pos = this.scanNumber(raw, pos)
        const v = this.number
        if (pos < 0 || v !== v || v === Infinity || v === -Infinity) return false
        values[k] = v
        if (v === 0) zeros |= 1 << k
      }
      const c = raw[pos++] as number
      if (c === RBRACE) break
      if (c !== COMMA) return false
    }
    this.pos = pos
    const figures = seen & ~(zeros & this.zeroBits)
    // No symbol or no figures: parseFrame reads the item another way; let it.
    if (symbol === null || (figures & this.figureBits) === 0) return false
    const tsKey = this.tsKey
    const ts = (seen & (1 << tsKey)) !== 0 ? quoteTime(values[tsKey], now) : null
    // The figures go packed (packed-figures.ts): no fields object per tick.
    out.scanned(market, symbol, figures, values, ts, ref, tag)
    return true
  }

  /** Reads the symbol string at `at`, normalised as parseFrame does; the position after, or -1. */
  private scanSymbol(raw: Bytes, at: number): number {
    if ((raw[at] as number) !== QUOTE) return -1
    const start = at + 1
    const slotRaw = this.slotRaw
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
            this.symbol = this.slotSymbol[slot] as string | null
            this.ref = this.slotRef[slot]
            return this.symbol === null ? -1 : i + 1
          }
        }
        const slot = free < 0 ? home : free
        const text = ascii(raw, start, i)
        const symbol = normaliseSymbol(text)
        this.symbol = symbol
        this.ref = symbol === null ? undefined : newSymbolRef(symbol)
        // An empty span is never stored: '' marks a free slot.
        if (len > 0) {
          slotRaw[slot] = text
          this.slotSymbol[slot] = symbol
          this.slotRef[slot] = this.ref
        }
        return symbol === null ? -1 : i + 1
      }
      if (c < 0x20 || c > 0x7e || c === BACKSLASH) return -1
      h = Math.imul(h ^ c, 16777619)
    }
    return -1
  }

  /** Reads the market string at `at` as parseFrame does; the position after, or -1. */
  private scanMarket(raw: Bytes, at: number): number {
    const end = stringEnd(raw, at)
    if (end < 0) return -1
    const start = at + 1
    const len = end - start
    // A word the service uses for one of our markets may be learned mid-stream
    // (market-aliases.ts): the cached reading is then stale, whatever the bytes.
    if (
      len !== this.marketRaw.length ||
      len === 0 ||
      this.aliasGeneration !== aliasGeneration ||
      !bytesAt(raw, start, this.marketRaw)
    ) {
      this.marketRaw = ascii(raw, start, end)
      this.marketValue = marketNamed(this.marketRaw)
      this.aliasGeneration = aliasGeneration
    }
    this.market = this.marketValue
    return end + 1
  }

  /**
   * Reads the JSON number at `at` into this.number; the position after it, or -1. Up to 15
   * significant digits and 22 decimals it is digits / 10^decimals: both exact doubles, so the one
   * division rounds correctly, as JSON.parse does. Longer numbers and exponents go through
   * Number(), which rounds the same way.
   */
  private scanNumber(raw: Bytes, at: number): number {
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
      this.number = Number(ascii(raw, at, i))
      return i
    }
    if (digits > 15 || decimals > 22) {
      this.number = Number(ascii(raw, at, i))
      return i
    }
    const v = decimals === 0 ? mantissa : mantissa / (POW10[decimals] as number)
    this.number = negative ? -v : v
    return i
  }
}
