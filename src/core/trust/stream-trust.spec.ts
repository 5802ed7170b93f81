import { beforeEach, describe, expect, it } from 'vitest'
import type { Market, SymbolKey } from '../../shared/markets/market'
import { blankQuote, type Quote } from '../../shared/quote'
import { FakeClock } from '../clock'
import type { ReadingKeys } from '../push/field-reading'
import type { QuoteFields, QuoteUpdate } from '../quotes/quote-fields'
import { FIRST_CHECK_GRACE_MS, FROZEN_MS, StreamTrust } from './stream-trust'
import { LESSONS_TO_GIVE_UP, ROUND_MS } from './trust-state'

/** A market's stream trust, driven by hand: pushes held, REST answers paired, on a fake clock. */
let clock: FakeClock
let trust: StreamTrust
let samples: Array<{ keys: SymbolKey[]; urgent: boolean }>
let learned: Array<{ market: Market; keys: ReadingKeys }>
let shown: Array<{ symbol: string; fields: QuoteFields }>

function make(remembered?: Partial<Record<Market, ReadingKeys>>): StreamTrust {
  return new StreamTrust({
    clock,
    ...(remembered ? { remembered } : {}),
    onChange: () => undefined,
    onLearned: (market, keys) => learned.push({ market, keys }),
    onTrusted: (_m, held) => shown.push(...held),
    sample: (keys, urgent) => samples.push({ keys, urgent }),
    streamed: () => ['BTCUSDT', 'ETHUSDT'],
    streams: (_m, symbol) => ['BTCUSDT', 'ETHUSDT', 'SOLUSDT'].includes(symbol),
    sampleEveryMs: () => 180_000,
  })
}

beforeEach(() => {
  clock = new FakeClock(Date.UTC(2026, 10, 27, 9, 30))
  samples = []
  learned = []
  shown = []
  trust = make()
})

const push = (raw: Record<string, unknown>, symbol = 'BTCUSDT'): QuoteUpdate => ({
  market: 'crypto',
  symbol,
  fields: {},
  raw,
  ts: null,
  source: 'stream',
  receivedAt: clock.now(),
})
const rest = (fields: QuoteFields, symbol = 'BTCUSDT'): QuoteUpdate => ({
  market: 'crypto',
  symbol,
  fields,
  ts: null,
  source: 'poll',
  receivedAt: clock.now(),
})
const REST: QuoteFields = { last: 84_012.5, change: 30.2, bid: 84_012.4, ask: 84_012.6 }
/** The 24-hour ticker: `p` is the change, `c` the price. */
const ticker = (c: number, p = 30.2): Record<string, unknown> => ({
  s: 'BTCUSDT',
  p: String(p),
  c: String(c),
  b: String(c - 0.1),
  a: String(c + 0.1),
})

describe('StreamTrust', () => {
  it('holds a market’s pushes until a REST quote of the same symbol agrees, then shows them', () => {
    trust.hold(push({ symbol: 'BTCUSDT', last: 84_012 }))
    expect(trust.shows('crypto')).toBe(false)
    clock.advance(500)
    trust.restAnswer(rest(REST), undefined)
    expect(trust.shows('crypto')).toBe(true)
    expect(shown).toEqual([{ symbol: 'BTCUSDT', fields: { last: 84_012 }, at: clock.now() - 500 }])
  })

  it('answers each market for itself, asked in turns, and at once after its state moves', () => {
    trust.hold(push({ symbol: 'BTCUSDT', last: 84_012 }))
    trust.hold({ ...push({ symbol: '00700', last: 390 }, '00700'), market: 'hk' })
    trust.restAnswer(rest(REST), undefined)
    const both = (): boolean[] => [trust.shows('crypto'), trust.shows('hk'), trust.shows('crypto')]
    expect(both()).toEqual([true, false, true])
    expect(trust.readingOf('hk').isDefault).toBe(true)
    // A sample that disagrees: polled again at once, whatever was asked last.
    const sampled = { ...blankQuote('crypto', 'BTCUSDT', clock.now(), 'stream'), last: 90_000 }
    trust.restAnswer(rest(REST), { quote: sampled, streamMovedAt: clock.now() })
    expect(both()).toEqual([false, false, false])
  })

  it('asks for a REST sample when none came within 2 s of the first push', () => {
    trust.hold(push({ symbol: 'BTCUSDT', last: 84_012 }))
    clock.advance(2_100)
    trust.hold(push({ symbol: 'BTCUSDT', last: 84_013 }))
    expect(samples).toEqual([{ keys: ['crypto:BTCUSDT'], urgent: true }])
  })

  it('distrusts a reading whose price is off, learns one from the pair, and trusts it after two agreements', () => {
    trust.hold(push(ticker(84_012.5)))
    trust.restAnswer(rest(REST), undefined)
    expect(trust.shows('crypto')).toBe(false)
    // The other symbols stay subscribed a moment, to check the learned reading at once...
    expect(trust.gate('crypto')).toBe('open')
    clock.advance(FIRST_CHECK_GRACE_MS)
    // ...then the market polls, one probe symbol checking it.
    expect(trust.gate('crypto')).toBe('probe')
    expect(trust.distrusted()).toEqual([{ market: 'crypto', why: 'disagree' }])
    expect(trust.readingOf('crypto').keys).toMatchObject({ last: 'c', change: 'p' })
    for (let i = 1; i <= 2; i++) {
      clock.advance(3_000)
      trust.hold(push(ticker(84_012.5 + i)))
      trust.restAnswer(rest({ ...REST, last: 84_012.5 + i }), undefined)
    }
    expect(trust.shows('crypto')).toBe(true)
    expect(learned).toEqual([{ market: 'crypto', keys: expect.objectContaining({ last: 'c' }) }])
    expect(trust.report()[0]).toMatchObject({ state: 'trusted', source: 'learned', why: null })
  })

  it('checks a learned reading on the other symbols of the first snapshot at once', () => {
    trust.restAnswer(rest(REST, 'BTCUSDT'), undefined)
    trust.restAnswer(rest({ ...REST, last: 3_200.5 }, 'ETHUSDT'), undefined)
    trust.restAnswer(rest({ ...REST, last: 165.25 }, 'SOLUSDT'), undefined)
    clock.advance(300)
    trust.hold(push(ticker(84_012.5)))
    expect(trust.gate('crypto')).toBe('open')
    trust.hold(push({ ...ticker(3_200.5), s: 'ETHUSDT' }, 'ETHUSDT'))
    trust.hold(push({ ...ticker(165.25), s: 'SOLUSDT' }, 'SOLUSDT'))
    expect(trust.shows('crypto')).toBe(true)
  })

  it('polls a market whose pushes carry no price it can read, and looks again a round later', () => {
    for (let i = 1; i <= LESSONS_TO_GIVE_UP; i++) {
      expect(trust.gate('crypto')).not.toBe('closed')
      trust.hold(push({ symbol: 'BTCUSDT', bid: 84_012.4, ask: 84_012.6 }))
      trust.restAnswer(rest(REST), undefined)
      clock.advance(3_000)
    }
    expect(trust.gate('crypto')).toBe('closed')
    expect(trust.distrusted()).toEqual([{ market: 'crypto', why: 'no-price' }])
    trust.start()
    clock.advance(ROUND_MS + 1_000)
    expect(trust.gate('crypto')).toBe('probe')
    trust.stop()
  })

  it('starts from a reading remembered on this service, still checked before it is shown', () => {
    trust = make({ crypto: { last: 'c' } })
    trust.hold(push(ticker(84_012.5)))
    expect(trust.shows('crypto')).toBe(false)
    trust.restAnswer(rest(REST), undefined)
    expect(trust.shows('crypto')).toBe(true)
    expect(trust.report()[0]).toMatchObject({ source: 'remembered' })
  })

  describe('once trusted', () => {
    const streamQuote = (last: number, receivedAt: number): Quote => ({
      ...blankQuote('crypto', 'BTCUSDT', receivedAt, 'stream'),
      last,
    })
    beforeEach(() => {
      trust.hold(push({ symbol: 'BTCUSDT', last: 84_012.5 }))
      trust.restAnswer(rest(REST), undefined)
      expect(trust.shows('crypto')).toBe(true)
    })

    it('samples the stream against REST a minute after, then every few minutes, riding poll calls', () => {
      trust.start()
      clock.advance(61_000)
      clock.advance(180_000)
      trust.stop()
      expect(samples).toEqual([
        { keys: ['crypto:BTCUSDT'], urgent: false },
        { keys: ['crypto:ETHUSDT'], urgent: false },
      ])
    })

    it('samples at a pace stretched each turn, so a market that steps every 10 s is met at every point of its step', () => {
      const at: number[] = []
      const o = new StreamTrust({
        clock,
        onChange: () => undefined,
        sample: () => at.push(clock.now()),
        streamed: () => ['BTCUSDT'],
        streams: () => true,
        sampleEveryMs: () => 180_000,
      })
      o.hold(push({ symbol: 'BTCUSDT', last: 84_012.5 }))
      o.restAnswer(rest(REST), undefined)
      o.start()
      for (let s = 0; s < 6 * 3600; s++) clock.advance(1_000)
      o.stop()
      const waits = at.slice(1).map((t, i) => t - (at[i] as number))
      // Never sooner than the pace (the plan's budget), at most a quarter later (and the 1 s look).
      expect(Math.min(...waits)).toBeGreaterThanOrEqual(180_000)
      expect(Math.max(...waits)).toBeLessThanOrEqual(226_000)
      // Where each sample falls in a 10 s cycle: samples on a bare 180 s period all fall at one.
      const phases = new Set(at.map((t) => Math.floor(((t - at[0]!) % 10_000) / 1_000)))
      expect(phases.size).toBeGreaterThanOrEqual(8)
    })

    it('goes back to polling at once when a sample disagrees', () => {
      const q = streamQuote(90_000, clock.now())
      trust.restAnswer(rest(REST), { quote: q, streamMovedAt: clock.now() })
      expect(trust.shows('crypto')).toBe(false)
      expect(trust.distrusted()).toEqual([{ market: 'crypto', why: 'disagree' }])
    })

    it('is trusted again after a fast move, not polled for a round: a pair across the move teaches nothing', () => {
      // The market drops 1 % between the stream's price and the sample's.
      trust.restAnswer(rest({ ...REST, last: 83_172 }), {
        quote: streamQuote(84_012.5, clock.now()),
        streamMovedAt: clock.now(),
      })
      expect(trust.shows('crypto')).toBe(false)
      // A push from before the drop, held against a poll after it: nothing to learn.
      trust.hold(push({ symbol: 'BTCUSDT', last: 84_012.5 }))
      clock.advance(500)
      trust.restAnswer(rest({ ...REST, last: 83_172 }), undefined)
      expect(trust.gate('crypto')).toBe('probe')
      // Then the pushes and the polls agree again, under the reading it had.
      for (let i = 1; i <= 3; i++) {
        clock.advance(3_000)
        trust.hold(push({ symbol: 'BTCUSDT', last: 83_172 + i }))
        trust.restAnswer(rest({ ...REST, last: 83_172 + i }), undefined)
      }
      expect(trust.shows('crypto')).toBe(true)
      expect(trust.report()[0]).toMatchObject({ state: 'trusted' })
    })

    it('is trusted again when every other pair falls across a move, not given up after three', () => {
      // A market that climbs 1 % over each 10 s and drops back (the render bench's feed): one
      // push a second at 0.9 s into each second, a poll every 5 s at 0.2 s into each half of
      // the cycle. The poll just after the drop is paired with the push just before it, every
      // time: every other pair teaches nothing, the others agree.
      const cycle = (t: number): number => ((t % 10_000) + 10_000) % 10_000
      const priceAt = (t: number): number => 84_000 * (1 + 0.01 * (cycle(t) / 10_000))
      const quoted = (t: number): QuoteFields => {
        const last = priceAt(t)
        return { last, bid: last - 1, ask: last + 1 }
      }
      clock.advance(10_100 - cycle(clock.now()))
      trust.restAnswer(rest({ ...REST, last: 83_000 }), {
        quote: streamQuote(84_012.5, clock.now()),
        streamMovedAt: clock.now(),
      })
      expect(trust.gate('crypto')).toBe('probe')
      const states = new Set<string>()
      for (let ms = 100; ms < 120_000; ms += 100) {
        clock.advance(100)
        const t = clock.now()
        if (cycle(t) % 1_000 === 900) {
          const last = priceAt(t)
          trust.hold(push({ symbol: 'BTCUSDT', last, bid: last - 1, ask: last + 1 }))
        }
        if (cycle(t) % 5_000 === 200) trust.restAnswer(rest(quoted(t)), undefined)
        states.add(trust.gate('crypto'))
        if (trust.shows('crypto')) break
      }
      expect(states.has('closed')).toBe(false)
      expect(trust.report()[0]).toMatchObject({ state: 'trusted' })
    })

    it('calls a stream price that stood still for a minute while REST moved frozen', () => {
      const movedAt = clock.now()
      clock.advance(FROZEN_MS - 1_000)
      const still = streamQuote(84_012.5, clock.now())
      trust.restAnswer(rest({ last: 84_013.5 }), { quote: still, streamMovedAt: movedAt })
      expect(trust.shows('crypto')).toBe(true)
      clock.advance(2_000)
      const stiller = streamQuote(84_012.5, clock.now())
      trust.restAnswer(rest({ last: 84_014.5 }), { quote: stiller, streamMovedAt: movedAt })
      expect(trust.distrusted()).toEqual([{ market: 'crypto', why: 'frozen' }])
    })
  })
})
