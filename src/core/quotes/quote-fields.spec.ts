import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { QUOTE_FIGURES } from '../../shared/quote'
import { ZERO_IS_NONE } from '../push/packed-figures'
import { coerceNumber, pickQuoteFields, StreamUpdate, type QuoteFields } from './quote-fields'
import { parseFrame } from '../push/push-parser'
import { QuoteStore } from './quote-store'
import { FakeClock } from '../clock'

/** The original probe-every-name algorithm, kept as the reference for the one-pass version. */
const ALIASES: Array<[string, (typeof QUOTE_FIGURES)[number]]> = [
  ['price', 'last'],
  ['p', 'last'],
  ['lastPrice', 'last'],
  ['close', 'last'],
  ['c', 'last'],
  ['chg', 'change'],
  ['priceChange', 'change'],
  ['changePct', 'changePercent'],
  ['pct', 'changePercent'],
  ['priceChangePercent', 'changePercent'],
  ['vol', 'volume'],
  ['v', 'volume'],
  ['bidPrice', 'bid'],
  ['askPrice', 'ask'],
  ['b', 'bid'],
  ['a', 'ask'],
  ['prev', 'prevClose'],
  ['previousClose', 'prevClose'],
]
/** A price of 0 is no price (packed-figures.ts ZERO_IS_NONE): such a name is passed over. */
function reference(raw: Record<string, unknown>): QuoteFields {
  const out: QuoteFields = {}
  const read = (field: (typeof QUOTE_FIGURES)[number], name: string): number | undefined => {
    const v = coerceNumber(raw[name])
    return v === 0 && ZERO_IS_NONE.includes(field) ? undefined : v
  }
  for (const field of QUOTE_FIGURES) {
    const v = read(field, field)
    if (v !== undefined) out[field] = v
  }
  for (const [alias, field] of ALIASES) {
    if (out[field] !== undefined) continue
    const v = read(field, alias)
    if (v !== undefined) out[field] = v
  }
  return out
}

const NAMES = [
  ...QUOTE_FIGURES,
  ...ALIASES.map(([a]) => a),
  'symbol',
  'ts',
  'toString',
  '__proto__',
]
const VALUE = fc.oneof(
  fc.double(),
  fc.integer().map(String),
  fc.constantFrom('', ' ', 'abc', null, true, '1e3', 'NaN', 'Infinity', 0, '0', '1,234.5'),
  fc.object(),
)

describe('pickQuoteFields', () => {
  it('picks exactly what probing every field and alias in order picks, for any push object', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...NAMES), VALUE), (raw) => {
        const parsed = JSON.parse(JSON.stringify(raw)) as Record<string, unknown>
        expect(pickQuoteFields(parsed)).toEqual(reference(parsed))
      }),
      { numRuns: 2000 },
    )
  })

  it('lets a field’s own name beat its aliases and the first alias beat later ones', () => {
    expect(pickQuoteFields({ c: 3, price: 2, last: 1 })).toEqual({ last: 1 })
    expect(pickQuoteFields({ c: 3, price: 2 })).toEqual({ last: 2 })
    expect(pickQuoteFields({ last: 'x', c: '4' })).toEqual({ last: 4 })
  })

  it('reads a price of 0 as no price (a stock before its first trade), other figures as 0', () => {
    expect(pickQuoteFields({ last: 0, bid: '0', ask: 10.5, change: 0, volume: 0 })).toEqual({
      ask: 10.5,
      change: 0,
      volume: 0,
    })
    expect(pickQuoteFields({ last: 0, price: 7 })).toEqual({ last: 7 })
  })
})

describe('coerceNumber', () => {
  it.each([
    ['29,181.50', 29181.5],
    ['1,234,567', 1234567],
    ['-1,234.5', -1234.5],
    ["1'234.5", 1234.5],
    ['1 234.5', 1234.5],
  ])('reads thousands separators: %s', (text, value) => {
    expect(coerceNumber(text)).toBe(value)
  })

  it.each(['1,5', '1.234,5', '12,34', '1,234 567', '1,,234'])(
    'leaves %s unread rather than guess between a decimal and a thousands comma',
    (text) => {
      expect(coerceNumber(text)).toBeUndefined()
    },
  )
})

describe('push symbols', () => {
  it('normalises a symbol the same way on every frame, also after thousands of distinct names', () => {
    const tick = (s: string): unknown =>
      parseFrame(JSON.stringify({ type: 'tick', symbol: s, last: 1 }), Date.now())[0]
    expect(tick(' btcusdt ')).toMatchObject({ symbol: 'BTCUSDT' })
    for (let i = 0; i < 5000; i++) tick(`s${i}`)
    expect(tick(' btcusdt ')).toMatchObject({ symbol: 'BTCUSDT' })
    expect(tick('x'.repeat(33))).toMatchObject({ kind: 'malformed' })
    expect(tick('x'.repeat(33))).toMatchObject({ kind: 'malformed' })
  })
})

describe('QuoteStore.apply', () => {
  it('ignores keys of an update that are not quote fields, inherited names included', () => {
    const store = new QuoteStore(new FakeClock(1_000))
    const fields = JSON.parse('{"last":5,"toString":7,"constructor":8}') as QuoteFields
    const q = store.apply({
      market: 'crypto',
      symbol: 'BTCUSDT',
      fields,
      ts: null,
      source: 'stream',
    })
    expect(q.last).toBe(5)
    expect(Object.hasOwn(q, 'toString')).toBe(false)
  })

  it('does not send a field that moved and moved back within one frame', () => {
    const store = new QuoteStore(new FakeClock(1_000))
    const tick = (last: number, bid: number): void => {
      store.apply({
        market: 'crypto',
        symbol: 'BTCUSDT',
        fields: { last, bid },
        ts: 5,
        source: 'stream',
      })
    }
    tick(100, 99)
    store.drainPatches()
    tick(101, 99.5)
    tick(100, 99.6)
    const [patch] = store.drainPatches()
    expect(patch).toEqual({ key: 'crypto:BTCUSDT', bid: 99.6 })
  })
})

describe('StreamUpdate', () => {
  it('carries its fields in a copy, through one getter shared by every update', () => {
    const a = new StreamUpdate()
    const b = new StreamUpdate()
    a.refill('crypto', 'BTCUSDT', { last: 5 }, undefined, null, 1, undefined)
    expect({ ...a }.fields).toEqual({ last: 5 })
    // One function for all: a getter per instance gives each update a V8 shape of its own, and
    // the hot path's reads of it go megamorphic as stream clients come and go (bench/ingest).
    const getter = (u: StreamUpdate): unknown => Object.getOwnPropertyDescriptor(u, 'fields')?.get
    expect(getter(a)).toBeTypeOf('function')
    expect(getter(a)).toBe(getter(b))
  })
})
