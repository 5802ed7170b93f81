import type { Market } from '../../shared/markets/market'
import { FIGURE_BITS, newPackedFigures, unpackFigures, type PackedFigures } from './packed-figures'
import type { ParsedFrame } from './parsed-frame'
import type { QuoteFields } from '../quotes/quote-fields'
import type { SymbolRef } from './symbol-ref'

type TickFrame = Extract<ParsedFrame, { kind: 'tick' }>

/**
 * A tick the push scanner read (push-scan.ts): its figures stay packed for the store, and
 * `fields` unpacks them, a new object on each read, for anyone else.
 */
class ScannedTick implements TickFrame {
  readonly kind = 'tick'
  readonly packed: PackedFigures = newPackedFigures()
  tag: string | undefined = undefined
  readonly local = false

  constructor(
    public market: Market | null,
    public symbol: string,
    public ts: number | null,
    public ref: SymbolRef | undefined,
  ) {}

  get fields(): QuoteFields {
    return unpackFigures(this.packed.mask, this.packed.values) ?? {}
  }

  /** The scanner takes only keys named as figures: its item is its figures by their names. */
  get raw(): Readonly<Record<string, unknown>> {
    return this.fields
  }
}

/**
 * Where parseFrame and the push scanner put their results. Passed in by the caller (StreamClient
 * keeps one), its array and tick objects are reused by the next frame read into it: no
 * allocation per tick on the hot path (bench/ingest). A parsed tick's `fields` object is never
 * reused, so it may be kept; a scanned tick's packed figures are overwritten by the next frame.
 */
export class FrameBuffer {
  readonly frames: ParsedFrame[] = []
  private readonly ticks: TickFrame[] = []
  private used = 0
  private readonly scannedTicks: ScannedTick[] = []
  private scannedUsed = 0

  reset(): void {
    this.frames.length = 0
    this.used = 0
    this.scannedUsed = 0
  }

  push(frame: ParsedFrame): void {
    this.frames.push(frame)
  }

  tick(
    market: Market | null,
    symbol: string,
    fields: QuoteFields,
    ts: number | null,
    raw?: Readonly<Record<string, unknown>>,
    local?: boolean,
    tag?: string,
  ): void {
    let t = this.ticks[this.used]
    if (t === undefined) {
      t = { kind: 'tick', market, symbol, fields, ts, raw, local, tag }
      this.ticks.push(t)
    } else {
      readdress(t, market, symbol, ts)
      t.fields = fields
      t.raw = raw
      t.local = local
      t.tag = tag
    }
    this.used++
    this.frames.push(t)
  }

  /**
   * A scanned tick: `mask` has bit i set for QUOTE_FIGURES[i] read, its value in values[i]
   * (those copied: the scanner reuses its array).
   */
  scanned(
    market: Market | null,
    symbol: string,
    mask: number,
    values: Float64Array,
    ts: number | null,
    ref: SymbolRef | undefined,
    tag?: string,
  ): void {
    let t = this.scannedTicks[this.scannedUsed]
    if (t === undefined) {
      t = new ScannedTick(market, symbol, ts, ref)
      this.scannedTicks.push(t)
    } else {
      readdress(t, market, symbol, ts)
      t.ref = ref
    }
    t.tag = tag
    const packed = t.packed
    const present = mask & FIGURE_BITS
    packed.mask = present
    // Only the figures present: nothing reads the others (packed-figures.ts PackedFigures).
    const to = packed.values
    for (let bits = present; bits !== 0; bits &= bits - 1) {
      const i = 31 - Math.clz32(bits & -bits)
      to[i] = values[i] as number
    }
    this.scannedUsed++
    this.frames.push(t)
  }
}

/** What every reused tick is about: set first when a pooled tick of either kind is reused. */
function readdress(
  t: { market: Market | null; symbol: string; ts: number | null },
  market: Market | null,
  symbol: string,
  ts: number | null,
): void {
  t.market = market
  t.symbol = symbol
  t.ts = ts
}
