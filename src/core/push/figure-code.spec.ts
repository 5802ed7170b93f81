import { describe, expect, it } from 'vitest'
import { checkFigureTable, MAX_FIGURES, QUOTE_FIGURES, QuoteSchema } from '../../shared/quote'
import { FRAME_FIELDS } from '../../shared/quote-frame'
import { compileFigureCode } from './figure-code'
import { AT_RECEIVED, AT_TS, MIRROR_SLOTS } from './figure-mirror'
import { FIGURE_ALIASES, FIGURE_BITS, FIGURE_COUNT } from './packed-figures'

/**
 * The figure table (shared/quote.ts) is the only place a figure is named and numbered: a table
 * with one more figure gives code that packs, unpacks, merges, reads and picks it, with nothing
 * else written by hand (the scanner's keys: push-scan.spec.ts).
 */
const EXTENDED = [...QUOTE_FIGURES, 'openInterest'] as const
type Extended = (typeof EXTENDED)[number]
const code = compileFigureCode<Extended>(EXTENDED, { ...FIGURE_ALIASES, openInterest: ['oi'] })
const OI = EXTENDED.indexOf('openInterest')

function blank(): Record<Extended, number | null> {
  return Object.fromEntries(EXTENDED.map((f) => [f, null])) as Record<Extended, number | null>
}

describe('the figure table, extended by one figure', () => {
  it('numbers the new figure after the others: its slot, its bit, the count', () => {
    expect(code.count).toBe(QUOTE_FIGURES.length + 1)
    expect(OI).toBe(QUOTE_FIGURES.length)
    expect(code.bits).toBe(2 ** code.count - 1)
  })

  it('packs and unpacks it, in table order', () => {
    const values = new Float64Array(code.count)
    const bits = code.pack({ last: 2, openInterest: 9 }, values)
    expect(bits).toBe(1 | (1 << OI))
    expect(values[OI]).toBe(9)
    expect(code.unpack(bits, values)).toEqual({ last: 2, openInterest: 9 })
    expect(Object.keys(code.unpack(code.bits, values) ?? {})).toEqual(EXTENDED)
  })

  it('merges it into the quote and its mirror, and says when it changed', () => {
    const q = blank()
    const mirror = new Float64Array(2 * (code.count + 2)).fill(NaN)
    const at = code.count + 2
    const f = new Float64Array(code.count)
    f[OI] = 5
    expect(code.merge(q, 1 << OI, f, mirror, at)).toBe(1 << OI)
    expect(q.openInterest).toBe(5)
    expect(mirror[at + OI]).toBe(5)
    expect(code.merge(q, 1 << OI, f, mirror, at)).toBe(0)
    expect(code.read(q, OI)).toBe(5)
    expect(code.read(q, code.count)).toBeNull()
  })

  it('picks it by its name or its alias, the name first', () => {
    expect(code.pick({ oi: '12', price: 3 })).toEqual({ last: 3, openInterest: 12 })
    expect(code.pick({ oi: 1, openInterest: 2 })).toEqual({ openInterest: 2 })
    expect(code.pick({ symbol: 'X' })).toBeNull()
  })
})

describe('what the real table derives', () => {
  it('gives every list its length: packed figures, mirror slots, frame columns, the schema', () => {
    expect(FIGURE_COUNT).toBe(QUOTE_FIGURES.length)
    expect(FIGURE_BITS).toBe(2 ** QUOTE_FIGURES.length - 1)
    expect([AT_TS, AT_RECEIVED, MIRROR_SLOTS]).toEqual([
      QUOTE_FIGURES.length,
      QUOTE_FIGURES.length + 1,
      QUOTE_FIGURES.length + 2,
    ])
    expect(FRAME_FIELDS.slice(0, QUOTE_FIGURES.length)).toEqual(QUOTE_FIGURES)
    expect(
      Object.keys(QuoteSchema.shape).filter((k) => QUOTE_FIGURES.includes(k as never)),
    ).toEqual(QUOTE_FIGURES)
  })
})

describe('checkFigureTable, run at load', () => {
  it.each([
    ['a figure listed twice', ['last', 'bid', 'last']],
    ['a quote key as a figure', ['last', 'ts']],
    ['a name that is not an identifier', ['last', 'x;alert(1)']],
    [
      'more figures than the masks hold',
      Array.from({ length: MAX_FIGURES + 1 }, (_, i) => `f${i}`),
    ],
    ['no figure', []],
  ])('refuses %s', (_what, names) => {
    expect(() => checkFigureTable(names)).toThrow(/quote figure table/)
    expect(() => compileFigureCode(names)).toThrow(/quote figure table/)
  })

  it('refuses an alias that is not a name, before it is written into code', () => {
    expect(() => compileFigureCode(['last'], { last: ['a.b'] })).toThrow(/not a name/)
  })
})
