import { QUOTE_FIELDS, type QuoteField, type QuoteFields } from './quote-fields'
import type { Quote } from '../shared/quote'
import { newPackedFigures, packFields } from './packed-figures'

/**
 * Merging a tick's figures into a stored Quote (QuoteStore.applyEntry), from a fields object or
 * from the push scanner's packed figures, and reading them back by index (drainFrame). Each
 * returns or takes bit masks in QUOTE_FIELDS order, the bridge frame's own (shared/quote-frame).
 */

const bit = (f: QuoteField): number => 1 << QUOTE_FIELDS.indexOf(f)
export const B_LAST = bit('last')
export const B_CHANGE = bit('change')
export const B_CHANGE_PCT = bit('changePercent')
const B_OPEN = bit('open')
const B_HIGH = bit('high')
const B_LOW = bit('low')
export const B_PREV_CLOSE = bit('prevClose')
const B_VOLUME = bit('volume')
const B_QUOTE_VOLUME = bit('quoteVolume')
const B_BID = bit('bid')
const B_ASK = bit('ask')
const B_BID_SIZE = bit('bidSize')
const B_ASK_SIZE = bit('askSize')
const B_TRADES = bit('trades')

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
 * bits. test/fuzz/push-scan.spec.ts checks this and the fields path leave equal stores.
 */
export function mergePacked(
  q: Quote,
  present: number,
  f: Float64Array,
  m: Float64Array,
  at: number,
): number {
  let mask = 0
  let v: number
  if ((present & B_LAST) !== 0) {
    v = f[0] as number
    if (v !== m[at + 0]) {
      q.last = v
      m[at + 0] = v
      mask |= B_LAST
    }
  }
  if ((present & B_CHANGE) !== 0) {
    v = f[1] as number
    if (v !== m[at + 1]) {
      q.change = v
      m[at + 1] = v
      mask |= B_CHANGE
    }
  }
  if ((present & B_CHANGE_PCT) !== 0) {
    v = f[2] as number
    if (v !== m[at + 2]) {
      q.changePercent = v
      m[at + 2] = v
      mask |= B_CHANGE_PCT
    }
  }
  if ((present & B_OPEN) !== 0) {
    v = f[3] as number
    if (v !== m[at + 3]) {
      q.open = v
      m[at + 3] = v
      mask |= B_OPEN
    }
  }
  if ((present & B_HIGH) !== 0) {
    v = f[4] as number
    if (v !== m[at + 4]) {
      q.high = v
      m[at + 4] = v
      mask |= B_HIGH
    }
  }
  if ((present & B_LOW) !== 0) {
    v = f[5] as number
    if (v !== m[at + 5]) {
      q.low = v
      m[at + 5] = v
      mask |= B_LOW
    }
  }
  if ((present & B_PREV_CLOSE) !== 0) {
    v = f[6] as number
    if (v !== m[at + 6]) {
      q.prevClose = v
      m[at + 6] = v
      mask |= B_PREV_CLOSE
    }
  }
  if ((present & B_VOLUME) !== 0) {
    v = f[7] as number
    if (v !== m[at + 7]) {
      q.volume = v
      m[at + 7] = v
      mask |= B_VOLUME
    }
  }
  if ((present & B_QUOTE_VOLUME) !== 0) {
    v = f[8] as number
    if (v !== m[at + 8]) {
      q.quoteVolume = v
      m[at + 8] = v
      mask |= B_QUOTE_VOLUME
    }
  }
  if ((present & B_BID) !== 0) {
    v = f[9] as number
    if (v !== m[at + 9]) {
      q.bid = v
      m[at + 9] = v
      mask |= B_BID
    }
  }
  if ((present & B_ASK) !== 0) {
    v = f[10] as number
    if (v !== m[at + 10]) {
      q.ask = v
      m[at + 10] = v
      mask |= B_ASK
    }
  }
  if ((present & B_BID_SIZE) !== 0) {
    v = f[11] as number
    if (v !== m[at + 11]) {
      q.bidSize = v
      m[at + 11] = v
      mask |= B_BID_SIZE
    }
  }
  if ((present & B_ASK_SIZE) !== 0) {
    v = f[12] as number
    if (v !== m[at + 12]) {
      q.askSize = v
      m[at + 12] = v
      mask |= B_ASK_SIZE
    }
  }
  if ((present & B_TRADES) !== 0) {
    v = f[13] as number
    if (v !== m[at + 13]) {
      q.trades = v
      m[at + 13] = v
      mask |= B_TRADES
    }
  }
  return mask
}

/**
 * QUOTE_FIELDS[i] of the quote. A switch of named reads: the keyed read `q[QUOTE_FIELDS[i]]` went
 * megamorphic in drainFrame (~1.5% of the host at 10k ticks/s, perf).
 */
export function figure(q: Quote, i: number): number | null {
  switch (i) {
    case 0:
      return q.last
    case 1:
      return q.change
    case 2:
      return q.changePercent
    case 3:
      return q.open
    case 4:
      return q.high
    case 5:
      return q.low
    case 6:
      return q.prevClose
    case 7:
      return q.volume
    case 8:
      return q.quoteVolume
    case 9:
      return q.bid
    case 10:
      return q.ask
    case 11:
      return q.bidSize
    case 12:
      return q.askSize
    case 13:
      return q.trades
    default:
      return null
  }
}
