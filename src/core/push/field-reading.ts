import { QUOTE_FIGURES, type QuoteFigure } from '../../shared/quote'
import { coerceNumber, noneIfZero } from './figure-code'
import { FIGURE_ALIASES, FIGURE_CODE, ZERO_IS_NONE } from './packed-figures'
import type { QuoteFields } from '../quotes/quote-fields'

/**
 * Which key of a push holds which figure: a field reading. The interface does not show a push's
 * fields (spec: Events, "Shape of pushed tick and candle messages: not shown"), so the reading a
 * market's pushes are shown under is only ever a candidate until its prices agree with REST
 * (core/trust). The default reading is our guess: a figure's own name, then the names other
 * services use (packed-figures.ts FIGURE_ALIASES), the first found wins; it is what the push
 * scanner and parseFrame produce. A learned reading maps each figure to the one key that held
 * it when a push was compared with the REST quote of the same symbol (trust/reading-learner.ts).
 */
export interface FieldReading {
  /** 'default', or the learned map written out ("last=c,change=p,bid=b"): equal ids, equal maps. */
  readonly id: string
  readonly isDefault: boolean
  /** figure -> the service's key; empty for the default reading (names and aliases). */
  readonly keys: Readonly<Partial<Record<QuoteFigure, string>>>
  /** The figures out of a push's item under this reading; null when it carries none. */
  pick(raw: Readonly<Record<string, unknown>>): QuoteFields | null
}

export const DEFAULT_READING: FieldReading = {
  id: 'default',
  isDefault: true,
  keys: {},
  pick: (raw) => FIGURE_CODE.pick(raw as Record<string, unknown>),
}

export type ReadingKeys = Readonly<Partial<Record<QuoteFigure, string>>>

/**
 * A learned reading: each figure read from its one key, in the figure table's order, written as
 * code once (named reads stay monomorphic on the hot path, as figure-code.ts says). The keys come
 * from the service; each is written as a JSON string literal, so no key can be anything but a
 * property name in that code.
 */
export function learnedReading(keys: ReadingKeys): FieldReading {
  const pairs = QUOTE_FIGURES.flatMap((f) => (keys[f] === undefined ? [] : [[f, keys[f]] as const]))
  const lines = pairs.map(([figure, key]) => {
    const read = `coerceNumber(raw[${JSON.stringify(key)}])`
    const value = ZERO_IS_NONE.includes(figure) ? `noneIfZero(${read})` : read
    return `  v = ${value}\n  if (v !== undefined) (out ??= {}).${figure} = v`
  })
  const body = `return function pickLearned(raw) {\n  let out = null\n  let v\n${lines.join('\n')}\n  return out\n}`
  const pick = new Function('coerceNumber', 'noneIfZero', body)(
    coerceNumber,
    noneIfZero,
  ) as FieldReading['pick']
  return { id: readingId(keys), isDefault: false, keys: { ...keys }, pick }
}

export function readingId(keys: ReadingKeys): string {
  const parts = QUOTE_FIGURES.flatMap((f) => (keys[f] === undefined ? [] : [`${f}=${keys[f]}`]))
  return parts.length === 0 ? 'none' : parts.join(',')
}

/** The reading in a trader's words: "last from c, change from p, bid from b". */
export function describeReading(r: FieldReading): string {
  if (r.isDefault) return 'fields by their usual names'
  return QUOTE_FIGURES.flatMap((f) =>
    r.keys[f] === undefined ? [] : [`${f} from "${r.keys[f]}"`],
  ).join(', ')
}

/** The names a figure goes by under the default reading: its own, then its aliases. */
export function namesOf(figure: QuoteFigure): readonly string[] {
  return [figure, ...(FIGURE_ALIASES[figure] ?? [])]
}
