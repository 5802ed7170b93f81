import { QUOTE_FIGURES, type QuoteFigure } from '../../shared/quote'
import { namesOf, type ReadingKeys } from '../push/field-reading'
import { coerceNumber } from '../push/figure-code'
import type { QuoteFields } from '../quotes/quote-fields'
import { restPrice, TOLERANCE, type PriceBasis } from './price-check'

/**
 * Which key of a push holds which figure, learned by holding the push against the REST quote of
 * the same symbol taken at about the same time, not from a longer list of guessed names. In
 * order, each key used once:
 *   1. a key named as the figure (its own name, or another service's for it: field-reading.ts
 *      namesOf) whose value agrees with REST's figure: a name is a claim, the value proves it
 *      (so `p`, which one service means as the price and another as its change, goes where its
 *      value says);
 *   2. the day's fixed figures (open, previous close, high, low) by exact value;
 *   3. the keys left near REST's price: with REST's bid and ask to place, the lowest is the bid
 *      and the highest the ask, and between them (or alone) the last. This step assumes: values
 *      alone cannot tell a bid from a last within a spread smaller than a move, so a push of two
 *      unnamed prices is read as a quote's two sides, without a last (docs/open-readings.md);
 *   4. change, change %, volume and the rest by value;
 *   5. figures REST does not carry (sizes) by name only, as the default reading would.
 * Null when no key holds the price (no last, or for a symbol REST quotes without one, no bid and
 * ask): the stream's pushes carry no price we can read.
 */
export interface Learned {
  keys: ReadingKeys
  basis: PriceBasis
}

/** Numbers this large are epoch times or ids, never a figure. */
const NOT_A_FIGURE_FROM = 1e11
const TIME_KEYS: ReadonlySet<string> = new Set(['ts', 't', 'time', 'timestamp', 'E', 'T'])
const PRICES: ReadonlySet<QuoteFigure> = new Set([
  'last',
  'bid',
  'ask',
  'open',
  'high',
  'low',
  'prevClose',
])
const DAY_FIXED: readonly QuoteFigure[] = ['open', 'prevClose', 'high', 'low']
const BY_VALUE: readonly QuoteFigure[] = [
  'change',
  'changePercent',
  'volume',
  'quoteVolume',
  'trades',
]
/** Day totals move while the push and the quote are apart: 5 % is far from any other figure. */
const TOTAL_TOLERANCE = 0.05

export function learnReading(
  raw: Readonly<Record<string, unknown>>,
  rest: QuoteFields,
  symbol: string,
): Learned | null {
  const quoted = restPrice(rest)
  if (quoted === null) return null
  const { basis, price } = quoted
  const values = numbersOf(raw, symbol)
  const keys: Partial<Record<QuoteFigure, string>> = {}
  const take = (figure: QuoteFigure, key: string): void => {
    keys[figure] = key
    values.delete(key)
  }
  byName(values, rest, price, take)
  for (const f of DAY_FIXED) {
    const r = rest[f]
    if (keys[f] !== undefined || r === undefined) continue
    const key = [...values].find(([, v]) => v === r)?.[0]
    if (key !== undefined) take(f, key)
  }
  byRank(values, rest, keys, price, take)
  for (const f of BY_VALUE) {
    const r = rest[f]
    if (keys[f] !== undefined || r === undefined) continue
    const key = closest(
      [...values].filter(([, v]) => agrees(f, v, r, price)),
      r,
    )
    if (key !== null) take(f, key)
  }
  for (const f of QUOTE_FIGURES) {
    if (keys[f] !== undefined || rest[f] !== undefined) continue
    const name = namesOf(f).find((n) => values.has(n))
    if (name !== undefined) take(f, name)
  }
  const priced =
    basis === 'last' ? keys.last !== undefined : keys.bid !== undefined && keys.ask !== undefined
  return priced ? { keys, basis } : null
}

/** Step 1: named keys whose values agree with REST's figure. */
function byName(
  values: Map<string, number>,
  rest: QuoteFields,
  price: number,
  take: (figure: QuoteFigure, key: string) => void,
): void {
  for (const f of QUOTE_FIGURES) {
    const r = rest[f]
    if (r === undefined) continue
    for (const name of namesOf(f)) {
      const v = values.get(name)
      if (v === undefined || !agrees(f, v, r, price)) continue
      take(f, name)
      break
    }
  }
}

/** Step 3: the keys left near REST's price, placed by rank (see the top of the file). */
function byRank(
  values: Map<string, number>,
  rest: QuoteFields,
  keys: Partial<Record<QuoteFigure, string>>,
  price: number,
  take: (figure: QuoteFigure, key: string) => void,
): void {
  const near = [...values]
    .filter(([, v]) => Math.abs(v - price) <= TOLERANCE * Math.abs(price))
    .sort((a, b) => a[1] - b[1])
  const sides = rest.bid !== undefined && rest.ask !== undefined
  const bids = near.filter(([key]) => !namedOtherSide(key, 'bid'))
  const asks = near.filter(([key]) => !namedOtherSide(key, 'ask'))
  if (sides && keys.bid === undefined && keys.ask === undefined && bids.length > 0) {
    const bid = (bids[0] as [string, number])[0]
    const ask = asks.filter(([key]) => key !== bid).pop()?.[0]
    if (ask !== undefined) {
      take('bid', bid)
      take('ask', ask)
    }
  }
  if (rest.last !== undefined && keys.last === undefined) {
    // `take` removed what was just placed as bid and ask from `values`, not from `near`.
    const key = closest(
      near.filter(([key]) => values.has(key) && !namedOtherSide(key, 'last')),
      rest.last,
    )
    if (key !== null) take('last', key)
  }
}

const SIDES: readonly QuoteFigure[] = ['last', 'bid', 'ask']

/**
 * A key named as another of last, bid and ask is not placed as `figure` by rank: its name is a
 * claim its value did not prove in step 1 (the price moved between the push and the quote more
 * than the check allows), and ranking it instead read an ask as the last once (the render bench's
 * feed, whose prices jump by 1 % every 10 s, showed the ask, 0.5 above the last, in about one
 * run in five). Left unplaced, the pair teaches no price and the next pair is asked.
 */
function namedOtherSide(key: string, figure: QuoteFigure): boolean {
  if (namesOf(figure).includes(key)) return false
  return SIDES.some((other) => other !== figure && namesOf(other).includes(key))
}

function agrees(figure: QuoteFigure, v: number, r: number, price: number): boolean {
  if (PRICES.has(figure)) return Math.abs(v - r) <= TOLERANCE * Math.abs(r)
  if (figure === 'change') return Math.abs(v - r) <= TOLERANCE * Math.abs(price)
  if (figure === 'changePercent') return Math.abs(v - r) <= TOLERANCE * 100
  return Math.abs(v - r) <= TOTAL_TOLERANCE * Math.abs(r) + 1
}

function closest(entries: ReadonlyArray<readonly [string, number]>, target: number): string | null {
  let best: string | null = null
  let gap = Infinity
  for (const [key, v] of entries) {
    const d = Math.abs(v - target)
    if (d < gap) {
      gap = d
      best = key
    }
  }
  return best
}

/** The push's numbers by key: not times, not the symbol, not 0 (no price), not ids. */
function numbersOf(raw: Readonly<Record<string, unknown>>, symbol: string): Map<string, number> {
  const out = new Map<string, number>()
  for (const key in raw) {
    if (TIME_KEYS.has(key)) continue
    const value = raw[key]
    if (typeof value === 'string' && value.trim().toUpperCase() === symbol) continue
    const v = coerceNumber(value)
    if (v === undefined || v === 0 || Math.abs(v) >= NOT_A_FIGURE_FROM) continue
    out.set(key, v)
  }
  return out
}
