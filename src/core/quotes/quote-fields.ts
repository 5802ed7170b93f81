import type { Market } from '../../shared/markets/market'
import type { Quote, QuoteFigure } from '../../shared/quote'
import { coerceNumber } from '../push/figure-code'
import { FIGURE_CODE, unpackFigures, type PackedFigures } from '../push/packed-figures'
import type { SymbolRef } from '../push/symbol-ref'

export { coerceNumber }

/** The figures a REST snapshot or a push may carry; any subset (pushes are often partial). */
export type QuoteFields = Partial<Record<QuoteFigure, number>>

/** One normalised update from either transport, before it is merged into the QuoteStore. */
export interface QuoteUpdate {
  market: Market
  symbol: string
  fields: QuoteFields
  /** Epoch ms of the data when the service said; null to use receive time. */
  ts: number | null
  source: Exclude<Quote['source'], 'cache'>
  /**
   * When the frame carrying it arrived (epoch ms); absent means "now" at merge time. The stream
   * sets it once per frame so the store need not read the clock once per tick.
   */
  receivedAt?: number
  /** The pushed symbol's handle (push-scan.ts), saving the store its look-up; absent for polls. */
  ref?: SymbolRef | undefined
  /**
   * A scanned tick's figures as the push scanner read them (packed-figures.ts): when set, the
   * store merges these, and `fields` holds the same values.
   */
  packed?: PackedFigures | undefined
  /**
   * A pushed tick's item as the service wrote it (its keys, not our figures), for checking and
   * learning which key holds which figure (core/trust); read it during the tick only.
   */
  readonly raw?: Readonly<Record<string, unknown>> | undefined
}

const NO_FIELDS: QuoteFields = Object.freeze({})

/**
 * The stream's one update, refilled per tick instead of allocated per tick (bench/ingest). A
 * scanned tick keeps its figures packed for the store; `fields` unpacks them, a new object on
 * each read, for anyone else who reads the update. `fields` is an own enumerable property, so a
 * listener's copy (`{ ...update }`) carries the fields as a poll's update would; the packed
 * figures are not copied (they are the next tick's once this one is done).
 */
export class StreamUpdate implements QuoteUpdate {
  market: Market = 'crypto'
  symbol = ''
  ts: number | null = null
  readonly source = 'stream'
  receivedAt = 0
  ref: SymbolRef | undefined = undefined
  declare readonly fields: QuoteFields
  #parsed: QuoteFields = NO_FIELDS
  #packed: PackedFigures | undefined = undefined
  #raw: { readonly raw?: Readonly<Record<string, unknown>> | undefined } | null = null

  /**
   * One getter shared by every update: V8 gives two objects the same shape (map) only when their
   * accessors are the same function, and a closure per instance gave each stream client's update
   * a shape of its own, so the hot path's reads of it (the store, the engine) went polymorphic,
   * then megamorphic, with each new client (bench/ingest: a client per round).
   */
  static readonly #fieldsGetter = {
    enumerable: true,
    get(this: StreamUpdate): QuoteFields {
      const p = this.#packed
      return p === undefined ? this.#parsed : (unpackFigures(p.mask, p.values) ?? {})
    },
  }

  constructor() {
    Object.defineProperty(this, 'fields', StreamUpdate.#fieldsGetter)
  }

  get packed(): PackedFigures | undefined {
    return this.#packed
  }

  /** The pushed item (read lazily from its frame: a scanned tick's is made on demand). */
  get raw(): Readonly<Record<string, unknown>> | undefined {
    return this.#raw?.raw
  }

  /**
   * Refills it for the next tick: from a fields object, or (fields null) from packed figures.
   * `from` is what the tick was read from (its `raw`, read only if someone asks).
   */
  refill(
    market: Market,
    symbol: string,
    fields: QuoteFields | null,
    packed: PackedFigures | undefined,
    ts: number | null,
    receivedAt: number,
    ref: SymbolRef | undefined,
    from: { readonly raw?: Readonly<Record<string, unknown>> | undefined } | null = null,
  ): this {
    this.ref = ref
    this.market = market
    this.symbol = symbol
    this.#parsed = fields ?? NO_FIELDS
    this.#packed = fields === null ? packed : undefined
    this.#raw = from
    this.ts = ts
    this.receivedAt = receivedAt
    return this
  }
}

/**
 * Picks the known quote fields out of an untrusted object, tolerating the names other services
 * use for the same fields (packed-figures.ts FIGURE_ALIASES). A field's own name beats any alias;
 * among aliases the first listed wins (quote-fields.spec.ts keeps a table-driven reference).
 *
 * Hot path (bench/ingest): every name is a plain property read, written from the table
 * (figure-code.ts). Pushes of one dialect share one object shape, so each read is a monomorphic
 * inline-cache hit (~1 ns, also for absent names); a for-in over the keys with table look-ups
 * and keyed writes cost several times more.
 */
export function pickQuoteFields(raw: Record<string, unknown>): QuoteFields {
  return pickQuoteFieldsIfAny(raw) ?? {}
}

/** pickQuoteFields, or null when the object carries none of the fields (no empty object made). */
export const pickQuoteFieldsIfAny: (raw: Record<string, unknown>) => QuoteFields | null =
  FIGURE_CODE.pick
