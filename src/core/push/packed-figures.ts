import { QUOTE_FIGURES, type QuoteFigure } from '../../shared/quote'
import { compileFigureCode } from './figure-code'

/** quote-fields.ts's QuoteFields, spelt out here: that module unpacks through this one. */
type QuoteFields = Partial<Record<QuoteFigure, number>>

/**
 * Other services' names for a figure (pickQuoteFields): a figure's own name beats any alias, and
 * among aliases the first listed wins. A figure without aliases needs no entry.
 */
export const FIGURE_ALIASES: Partial<Record<QuoteFigure, readonly string[]>> = {
  last: ['price', 'p', 'lastPrice', 'close', 'c'],
  change: ['chg', 'priceChange'],
  changePercent: ['changePct', 'pct', 'priceChangePercent'],
  prevClose: ['prev', 'previousClose'],
  volume: ['vol', 'v'],
  bid: ['bidPrice', 'b'],
  ask: ['askPrice', 'a'],
}

/**
 * The figures a 0 leaves absent: prices. A service sends `last: 0` for a stock that has not
 * traded yet today (an A-share before its first trade) and `bid: 0` for an empty side of the
 * book; read as a price, the change says -100 % and every "below" alert fires.
 */
export const ZERO_IS_NONE: readonly QuoteFigure[] = [
  'last',
  'open',
  'high',
  'low',
  'prevClose',
  'bid',
  'ask',
]

/** The figures' hot-path code, written from the table at load (figure-code.ts says why). */
export const FIGURE_CODE = compileFigureCode(QUOTE_FIGURES, FIGURE_ALIASES, ZERO_IS_NONE)

/**
 * A tick's figures as the push scanner read them, kept in numbers instead of a fields object
 * per tick (render bench: building that object and merging it by name was ~11% of the host at
 * 10k ticks/s). Bit i of `mask` set = QUOTE_FIGURES[i] was in the tick, its value in
 * values[i]; other slots hold whatever an earlier tick left. The store merges this form directly
 * (quote-merge.ts mergePacked); unpackFigures makes the fields object parseFrame would have made.
 */
export interface PackedFigures {
  mask: number
  readonly values: Float64Array
}

export const FIGURE_COUNT = FIGURE_CODE.count
/** Every figure's bit. */
export const FIGURE_BITS = FIGURE_CODE.bits

export function newPackedFigures(): PackedFigures {
  return { mask: 0, values: new Float64Array(FIGURE_COUNT) }
}

/** The fields object as pickQuoteFieldsIfAny builds it: same keys, same order; null for none. */
export const unpackFigures: (mask: number, values: Float64Array) => QuoteFields | null =
  FIGURE_CODE.unpack

/** unpackFigures' inverse: the fields' figures into `values`, their bits returned. */
export const packFields: (f: QuoteFields, values: Float64Array) => number = FIGURE_CODE.pack
