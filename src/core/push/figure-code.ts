/**
 * The hot-path code for a table of quote figures (shared/quote.ts QUOTE_FIGURES), written from the
 * table once, at load. Each function reads and writes the figures by name, one named access per
 * figure, as the hand-written versions did: a loop with keyed access `q[name]` went megamorphic
 * in V8 (perf, render bench at 10k ticks/s: ~2% of the host in unpack, ~1.5% in drainFrame, more
 * in the merge), while named accesses on one shape stay monomorphic. Generating them from the
 * table keeps that speed and makes the table the only place a figure is numbered: a 15th figure
 * is one more name there, never a hand-numbered `f[14]` five files away. The names are checked
 * (checkFigureTable) before they are written into code, so nothing but an identifier gets in.
 *
 * Layout every function shares: figure i is bit `1 << i` of a mask and slot i of a values array
 * (and slot `at + i` of a FigureMirror entry).
 * Tests: figure-code.spec.ts (an extended table), test/fuzz/quote-store.spec.ts (the merge).
 */
import { checkFigureTable } from '../../shared/quote'

type Fields<F extends string> = Partial<Record<F, number>>
type Figures<F extends string> = Record<F, number | null>

export interface FigureCode<F extends string> {
  readonly names: readonly F[]
  readonly count: number
  /** Every figure's bit. */
  readonly bits: number
  /** The fields object of a mask and its values, keys in table order; null for no figure. */
  unpack(mask: number, values: Float64Array): Fields<F> | null
  /** The fields' figures into `values`; their bits. */
  pack(fields: Fields<F>, values: Float64Array): number
  /**
   * Copies the present figures (bits of `present`, values in `f`) into the quote `q` and its
   * mirror `m` from offset `at`; the bits of those that changed (a mirrored null is NaN).
   */
  merge(q: Figures<F>, present: number, f: Float64Array, m: Float64Array, at: number): number
  /** Figure i of the quote; null past the table. */
  read(q: Figures<F>, i: number): number | null
  /**
   * The figures out of an untrusted object: a figure's own name first, then its aliases in
   * order; null when it carries none (no empty object made). A figure named in `zeroIsNone`
   * that reads 0 is absent (a price of 0 is "no trade yet", not a price).
   */
  pick(raw: Record<string, unknown>): Fields<F> | null
}

/**
 * Services send numbers as numbers or as strings; anything else (NaN, '', objects) is absent. A
 * string may group its thousands ("29,181.50", "1 234.5", "1'234.5"): groups of exactly three
 * digits after the first, one separator kind, a dot for the decimals. Anything else that
 * Number() cannot read ("1,5", "1.234,5") is absent, not guessed at: a decimal comma and a
 * thousands comma look alike, and a price misread by a factor of 1000 is worse than none.
 */
export function coerceNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value)
    if (Number.isFinite(n)) return n
    return grouped(value)
  }
  return undefined
}

/** A figure a 0 leaves absent reads 0 as undefined. */
export function noneIfZero(v: number | undefined): number | undefined {
  return v === 0 ? undefined : v
}

const GROUPED = /^[+-]?\d{1,3}([,' \u00a0\u202f])\d{3}(?:\1\d{3})*(?:\.\d+)?$/

function grouped(value: string): number | undefined {
  const text = value.trim()
  const m = GROUPED.exec(text)
  if (m === null) return undefined
  const n = Number(text.split(m[1] as string).join(''))
  return Number.isFinite(n) ? n : undefined
}

/**
 * Writes the functions for `names` (aliases: other services' names for a figure; zeroIsNone: the
 * figures a 0 leaves absent).
 */
export function compileFigureCode<F extends string>(
  names: readonly F[],
  aliases: Partial<Record<F, readonly string[]>> = {},
  zeroIsNone: readonly F[] = [],
): FigureCode<F> {
  checkFigureTable(names)
  for (const list of Object.values<readonly string[] | undefined>(aliases))
    for (const alias of list ?? []) {
      if (!/^[A-Za-z_$][\w$]*$/.test(alias)) throw new Error(`Figure alias ${alias}: not a name`)
    }
  const each = (line: (name: F, i: number) => string): string => names.map(line).join('\n')
  const unpack = `return function unpackFigures(mask, values) {
  if ((mask & ${(2 ** names.length - 1) | 0}) === 0) return null
  const f = {}
${each((n, i) => `  if ((mask & ${1 << i}) !== 0) f.${n} = values[${i}]`)}
  return f
}`
  const pack = `return function packFields(f, values) {
  let bits = 0
  let v
${each((n, i) => `  v = f.${n}\n  if (v !== undefined) { values[${i}] = v; bits |= ${1 << i} }`)}
  return bits
}`
  const merge = `return function mergePacked(q, present, f, m, at) {
  let mask = 0
  let v
${each(
  (n, i) => `  if ((present & ${1 << i}) !== 0) {
    v = f[${i}]
    if (v !== m[at + ${i}]) { q.${n} = v; m[at + ${i}] = v; mask |= ${1 << i} }
  }`,
)}
  return mask
}`
  const read = `return function figure(q, i) {
  switch (i) {
${each((n, i) => `    case ${i}: return q.${n}`)}
    default: return null
  }
}`
  const pick = `return function pickFigures(raw) {
  let out = null
  let v
${each((n) => {
  const more = aliases[n] ?? []
  const read = zeroIsNone.includes(n)
    ? (key: string): string => `noneIfZero(coerceNumber(raw.${key}))`
    : (key: string): string => `coerceNumber(raw.${key})`
  const rest =
    more.length === 0
      ? ''
      : `\n  if (v === undefined && (${more.map((a) => `raw.${a} !== undefined`).join(' || ')}))
    v = ${more.map(read).join(' ?? ')}`
  return `  v = ${read(n)}${rest}\n  if (v !== undefined) (out ??= {}).${n} = v`
})}
  return out
}`
  const compile = <T>(body: string): T =>
    new Function('coerceNumber', 'noneIfZero', body)(coerceNumber, noneIfZero) as T
  return {
    names,
    count: names.length,
    bits: (2 ** names.length - 1) | 0,
    unpack: compile(unpack),
    pack: compile(pack),
    merge: compile(merge),
    read: compile(read),
    pick: compile(pick),
  }
}
