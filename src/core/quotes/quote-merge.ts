import { QUOTE_FIGURES, type Quote, type QuoteFigure } from '../../shared/quote'
import { FIGURE_CODE } from '../push/packed-figures'

/**
 * Merging a tick's figures into a stored Quote (QuoteStore.applyEntry) from packed figures (the
 * push scanner's, or a fields object packed by the store), and reading them back by index. Each
 * returns or takes bit masks in QUOTE_FIGURES order, the bridge frame's own (shared/quote-frame).
 */

const bit = (f: QuoteFigure): number => 1 << QUOTE_FIGURES.indexOf(f)
export const B_LAST = bit('last')
export const B_CHANGE = bit('change')
export const B_CHANGE_PCT = bit('changePercent')
export const B_PREV_CLOSE = bit('prevClose')
export const B_BID = bit('bid')
export const B_ASK = bit('ask')

/**
 * Merges packed figures (packed-figures.ts) into the quote and its mirror (figure-mirror.ts, the
 * quote's numbers from offset `at`, null as NaN), read by bit and index instead of by name from
 * a fields object made per tick; returns the bits of those that changed. Written from the figure
 * table (figure-code.ts). test/fuzz/push-scan.spec.ts checks that scanned and parsed frames
 * leave equal stores.
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
