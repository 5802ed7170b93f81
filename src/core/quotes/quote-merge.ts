import type { QuoteFields } from './quote-fields'
import { QUOTE_FIGURES, type Quote, type QuoteFigure } from '../../shared/quote'
import { FIGURE_CODE, newPackedFigures, packFields } from '../push/packed-figures'

/**
 * Merging a tick's figures into a stored Quote (QuoteStore.applyEntry), from a fields object or
 * from the push scanner's packed figures, and reading them back by index (drainFrame). Each
 * returns or takes bit masks in QUOTE_FIGURES order, the bridge frame's own (shared/quote-frame).
 */

const bit = (f: QuoteFigure): number => 1 << QUOTE_FIGURES.indexOf(f)
export const B_LAST = bit('last')
export const B_CHANGE = bit('change')
export const B_CHANGE_PCT = bit('changePercent')
export const B_PREV_CLOSE = bit('prevClose')

/** mergeFields' packing space: one tick is merged at a time, and nothing keeps it past the call. */
const scratch = newPackedFigures().values

/**
 * Copies the update's present fields into the quote and its mirror (figure-mirror.ts, the
 * quote's numbers from offset `at`, null as NaN); returns the bits of those that changed.
 * Packs the fields and merges them as a scanned tick's, so there is one merge.
 */
export function mergeFields(q: Quote, f: QuoteFields, m: Float64Array, at: number): number {
  return mergePacked(q, packFields(f, scratch), scratch, m, at)
}

/**
 * Merges a scanned tick's packed figures (packed-figures.ts) into the quote and its mirror, read
 * by bit and index instead of by name from a fields object made per tick; returns the changed
 * bits. Written from the figure table (figure-code.ts). test/fuzz/push-scan.spec.ts checks this
 * and the fields path leave equal stores.
 */
export const mergePacked: (
  q: Quote,
  present: number,
  f: Float64Array,
  m: Float64Array,
  at: number,
) => number = FIGURE_CODE.merge

/** QUOTE_FIGURES[i] of the quote: named reads, written from the table (figure-code.ts). */
export const figure: (q: Quote, i: number) => number | null = FIGURE_CODE.read
