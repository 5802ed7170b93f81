import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { FakeClock } from '../../src/core/clock'
import { newPackedFigures } from '../../src/core/push/packed-figures'
import { QUOTE_FIGURES } from '../../src/shared/quote'
import { StreamUpdate, type QuoteFields } from '../../src/core/quotes/quote-fields'
import { QuoteStore } from '../../src/core/quotes/quote-store'
import type { Market, SymbolKey } from '../../src/shared/markets/market'
import { blankQuote, type Quote } from '../../src/shared/quote'
import { check, fuzzTimeout, printTally } from './counted'
import { ReferenceQuoteStore } from './reference-quote-store'

/**
 * QuoteStore against the store as it was before its figure mirror and packed merges
 * (reference-quote-store.ts): after every step of a random run (updates from fields objects or
 * packed figures, cache seeds, stale marks, removals, drains) both hold the same quotes, and
 * every drain writes the same frame, to the sign of a zero.
 */

const START = Date.UTC(2026, 0, 5, 14, 30)
const MARKETS: Market[] = ['crypto', 'hk']
const key = fc.tuple(fc.constantFrom(...MARKETS), fc.constantFrom('A', 'B', 'C'))
// Few values, so fields move back and forth (A -> B -> A within one drain) and repeat.
const value = fc.oneof(
  fc.constantFrom(0, -0, 1, 2, 100, 101, 99.75, 100.5, -100, 1e-7, 1e300, -1e300),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
)
const fields = fc
  .record(Object.fromEntries(QUOTE_FIGURES.map((f) => [f, value])), { requiredKeys: [] })
  .map((f) => f as QuoteFields)
const time = fc.oneof(
  fc.integer({ min: START - 5000, max: START + 5000 }),
  fc.constantFrom(START + 0.5, START),
)

const step = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      op: fc.constant('apply' as const),
      key,
      fields,
      ts: fc.option(time),
      receivedAt: fc.option(time),
      source: fc.constantFrom('stream' as const, 'poll' as const),
      packed: fc.boolean(),
    }),
  },
  fc.record({ op: fc.constant('seed' as const), key, fields, ts: time }),
  fc.record({
    op: fc.constant('stale' as const),
    keys: fc.oneof(fc.constant('all' as const), fc.array(key, { maxLength: 3 })),
  }),
  fc.record({ op: fc.constant('remove' as const), key }),
  { weight: 3, arbitrary: fc.record({ op: fc.constant('drain' as const), advance: time }) },
)

const keyOf = ([market, symbol]: [Market, string]): SymbolKey => `${market}:${symbol}` as SymbolKey

type Step = typeof step extends fc.Arbitrary<infer T> ? T : never

function sameRun(steps: Step[]): void {
  const clock = new FakeClock(START)
  const store = new QuoteStore(clock)
  const reference = new ReferenceQuoteStore(clock)
  const update = new StreamUpdate()
  const packed = newPackedFigures()
  for (const s of steps) {
    if (s.op === 'apply') {
      const [market, symbol] = s.key
      const u = {
        market,
        symbol,
        fields: s.fields,
        ts: s.ts,
        source: s.source,
        ...(s.receivedAt === null ? {} : { receivedAt: s.receivedAt }),
      }
      reference.apply(u)
      if (s.packed && s.source === 'stream' && s.receivedAt !== null) {
        // The scanner's form: a mask and the values by index, merged without a fields object.
        packed.mask = 0
        QUOTE_FIGURES.forEach((f, i) => {
          const v = s.fields[f]
          if (v === undefined) return
          packed.mask |= 1 << i
          packed.values[i] = v
        })
        store.apply(update.refill(market, symbol, null, packed, s.ts, s.receivedAt, undefined))
      } else store.apply(u)
    } else if (s.op === 'seed') {
      const [market, symbol] = s.key
      const q: Quote = { ...blankQuote(market, symbol, s.ts, 'cache'), ...s.fields }
      store.seed([q])
      reference.seed([q])
    } else if (s.op === 'stale') {
      const keys = s.keys === 'all' ? 'all' : s.keys.map(keyOf)
      store.markStale(keys)
      reference.markStale(keys)
    } else if (s.op === 'remove') {
      store.remove(keyOf(s.key))
      reference.remove(keyOf(s.key))
    } else {
      clock.advance(Math.abs(s.advance - START))
      expect(store.drainFrame()).toEqual(reference.drainFrame())
    }
    expect(store.all()).toEqual(reference.all())
  }
  expect(store.drainFrame()).toEqual(reference.drainFrame())
}

afterAll(() => printTally('quote-store'))

describe('fuzz: QuoteStore against the store before its mirror', () => {
  it(
    'holds the same quotes and drains the same frames, step for step',
    () => {
      check(
        'quote store: mirror and packed merges against the reference',
        fc.property(fc.array(step, { minLength: 1, maxLength: 40 }), (steps) => sameRun(steps)),
        1500,
      )
    },
    fuzzTimeout(30_000),
  )
})
