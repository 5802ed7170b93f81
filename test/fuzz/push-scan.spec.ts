import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { FakeClock } from '../../src/core/clock'
import { FrameBuffer, parseFrame, type ParsedFrame } from '../../src/core/push/push-parser'
import { PushScanner } from '../../src/core/push/push-scan'
import { StreamUpdate, type QuoteUpdate } from '../../src/core/quotes/quote-fields'
import { QuoteStore } from '../../src/core/quotes/quote-store'
import { KIND_FIELDS } from '../../src/core/push/push-kind'
import { QUOTE_FIGURES } from '../../src/shared/quote'
import { check, FUZZ_SCALE, fuzzTimeout, printTally } from './counted'

/**
 * The push scanner (push-scan.ts: batches, and one tick a frame) against parseFrame, frame for
 * frame: whenever the scanner takes a frame, its ticks are parseFrame's, to the key order of each
 * fields object and the sign of a zero; otherwise it declines and parseFrame reads the frame. Frames come in many
 * shapes (the bench feed's, other kinds, aliases, odd values), then mutated byte by byte. And
 * the store a run of scanned frames leaves, its ticks merged from their packed figures, is the
 * store the same frames leave through parseFrame's fields objects, frame for frame.
 */

const NOW = Date.UTC(2026, 0, 5, 14, 30)
/** One scanner for the whole run, as a stream client keeps one: its caches see every frame. */
const scanner = new PushScanner()

/** The scanner's result as plain data, or null when it declined. */
function scanned(text: string): unknown[] | null {
  const out = new FrameBuffer()
  // The socket's bytes, as the stream client scans them.
  return scanner.scan(Buffer.from(text), NOW, out) ? out.frames.map(plain) : null
}

/** A frame as plain data, with each fields object's key order made visible. */
function plain(f: ParsedFrame): unknown {
  if (f.kind !== 'tick') return f
  // The scanner hands its symbol's handle along (parseFrame has none): the same symbol's. Its
  // packed figures are checked through `fields`, which unpacks them.
  // Its item is its figures by name (the scanner takes no other key): not compared here.
  const { ref, packed: _packed, raw: _raw, ...tick } = f
  if (ref !== undefined) expect(ref.symbol).toBe(f.symbol)
  return { ...tick, fields: { ...f.fields }, order: Object.keys(f.fields) }
}

/** Both readings of one frame; asserts they agree when the scanner took it. */
function agree(text: string): boolean {
  const fast = scanned(text)
  if (fast === null) return false
  expect(fast, text).toEqual(parseFrame(text, NOW).map(plain))
  return true
}

const number = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.double({ min: 0.0001, max: 100_000, noNaN: true }),
  fc.integer({ min: -1_000_000, max: 1_000_000 }),
  fc.integer({ min: 1, max: 9999 }).map((n) => 100 + n / 10_000), // the bench feed's prices
  fc.constantFrom(0, -0, 1e21, 1e-7, 5e-324, 1.7976931348623157e308, 2 ** 53 + 2, 123.456789012345),
)
const value = fc.oneof(
  fc.double(),
  { weight: 6, arbitrary: number },
  fc.constantFrom(null, true, '12', '', 'NaN', ' 1 ', '1e400', {}, [1]),
  fc.constantFrom(Number.NaN, Infinity), // JSON.stringify writes null
)
const time = fc.oneof(
  fc.integer({ min: NOW - 86_400_000, max: NOW + 86_400_000 }), // ms, some in the future
  fc.integer({ min: 1_600_000_000, max: 1_900_000_000 }), // seconds
  fc.constantFrom(0, -1, 1e18, NOW * 1000, 1.5, '2026-01-05T14:00:00Z', null),
)
const symbol = fc.oneof(
  fc.constantFrom(
    'BTCUSDT',
    'S42',
    'btcusdt',
    ' eth ',
    '',
    '   ',
    'a"b',
    'a\\b',
    'é',
    'X'.repeat(33),
  ),
  fc.string({ maxLength: 8 }),
  fc.stringMatching(/^[A-Z0-9]{1,10}$/),
)
const market = fc.oneof(
  fc.constantFrom('crypto', 'CRYPTO', 'us', 'futures', 'nasdaq', '', 'Crypto'),
  fc.string({ maxLength: 6 }),
)
const OTHER_KEYS = ['price', 'p', 's', 'code', 'm', 't', 'type', 'event', 'data', 'error', 'v', 'b']

/** One item: the bench feed's keys mostly, sometimes any quote field, an alias or a stranger. */
const item = fc
  .record(
    {
      symbol,
      market,
      ts: time,
      ...Object.fromEntries(QUOTE_FIGURES.map((k) => [k, value])),
      ...Object.fromEntries(OTHER_KEYS.map((k) => [k, fc.oneof(value, symbol)])),
    },
    { requiredKeys: [] },
  )
  .chain((o) => fc.shuffledSubarray(Object.entries(o), { minLength: 0 }))
  .map((entries) => Object.fromEntries(entries))

const benchItem = fc.record({
  symbol: fc.stringMatching(/^S[0-9]{1,3}$/),
  market: fc.constant('crypto'),
  last: number,
  bid: number,
  ask: number,
  volume: fc.integer({ min: 0, max: 2 ** 40 }),
  ts: fc.integer({ min: NOW - 1000, max: NOW }),
})

const envelope = fc.record({
  key: fc.constantFrom(...KIND_FIELDS, 'kind', 'data'),
  kind: fc.constantFrom(
    'ticker',
    'tick',
    'Ticker',
    'quotes',
    'trade.BTC',
    'kline',
    'ping',
    'x',
    '',
  ),
  items: fc.array(fc.oneof(item, benchItem), { maxLength: 6 }),
  tail: fc.constantFrom({}, {}, {}, { market: 'crypto' }, { symbol: 'A' }),
})
const frame = envelope.map(({ key, kind, items, tail }) =>
  JSON.stringify({ [key]: kind, data: items, ...tail }),
)
const benchFrame = fc
  .array(benchItem, { minLength: 1, maxLength: 8 })
  .map((items) => JSON.stringify({ event: 'ticker', data: items }))
/** One tick a frame, its kind its first key (the typed dialect's shape). */
const benchSingle = benchItem.map((i) => JSON.stringify({ type: 'tick', ...i }))
/** One item a frame after a kind key of any name and word (an item's own `type` may follow). */
const singleFrame = fc
  .record({
    key: fc.constantFrom(...KIND_FIELDS, 'kind'),
    kind: fc.constantFrom('tick', 'ticker', 'Quote', 'trade.BTC', 'kline', 'ping', 'x', ''),
    item: fc.oneof(item, benchItem),
  })
  .map(({ key, kind, item }) => JSON.stringify({ [key]: kind, ...item }))

/** A frame with a few bytes changed: dropped, duplicated, replaced, or the frame cut short. */
const mutated = fc
  .tuple(
    fc.oneof(frame, benchFrame, singleFrame, benchSingle),
    fc.array(
      fc.tuple(
        fc.nat(),
        fc.constantFrom('drop', 'dup', 'set', 'cut'),
        fc.constantFrom(...' \t\n"\\{}[],:-+.0159eE'.split(''), 'x', 'é', '\u0000'),
      ),
      { minLength: 1, maxLength: 3 },
    ),
  )
  .map(([text, edits]) => {
    let s = text
    for (const [at, op, ch] of edits) {
      const i = at % (s.length + 1)
      if (op === 'drop') s = s.slice(0, i) + s.slice(i + 1)
      else if (op === 'dup') s = s.slice(0, i) + s.charAt(i) + s.slice(i)
      else if (op === 'set') s = s.slice(0, i) + ch + s.slice(i + 1)
      else s = s.slice(0, i)
    }
    return s
  })

/** Items on a few symbols with any of the figures, in any order: the store's state carries over. */
const storeItem = fc
  .record(
    {
      symbol: fc.constantFrom('A', 'B', 'C'),
      market: fc.constantFrom('crypto', 'crypto', 'us'),
      ts: fc.integer({ min: NOW - 1000, max: NOW }),
      ...Object.fromEntries(QUOTE_FIGURES.map((k) => [k, number])),
      // change and changePercent that agree with a close of 100 or 101 (followDay's two ways).
      change: fc.oneof(number, fc.constantFrom(1, 0.5, -0.25)),
      changePercent: fc.oneof(number, fc.constantFrom(1, 0.5, -0.25)),
      prevClose: fc.oneof(number, fc.constantFrom(100, 101)),
      last: fc.oneof(number, fc.constantFrom(101, 100.5, 99.75)),
    },
    { requiredKeys: ['symbol'] },
  )
  .chain((o) => fc.shuffledSubarray(Object.entries(o), { minLength: 1 }))
  .map((entries) => Object.fromEntries(entries))
const storeFrames = fc.array(
  fc.oneof(
    fc
      .array(storeItem, { minLength: 1, maxLength: 5 })
      .map((items) => JSON.stringify({ event: 'ticker', data: items })),
    storeItem.map((i) => JSON.stringify({ type: 'tick', ...i })),
  ),
  { minLength: 1, maxLength: 12 },
)

/** Both stores after each frame: packed merges in `fast`, fields objects in `slow`. */
function sameStores(texts: string[]): void {
  const clock = new FakeClock(NOW)
  const fast = new QuoteStore(clock)
  const slow = new QuoteStore(clock)
  const update = new StreamUpdate()
  const out = new FrameBuffer()
  for (const text of texts) {
    if (!scanner.scan(Buffer.from(text), NOW, out)) continue
    for (const f of out.frames) {
      if (f.kind !== 'tick') continue
      expect(f.packed).toBeDefined()
      fast.apply(update.refill(f.market ?? 'crypto', f.symbol, null, f.packed, f.ts, NOW, f.ref))
    }
    for (const f of parseFrame(text, NOW)) {
      if (f.kind !== 'tick') continue
      const u: QuoteUpdate = {
        market: f.market ?? 'crypto',
        symbol: f.symbol,
        fields: f.fields,
        ts: f.ts,
        source: 'stream',
        receivedAt: NOW,
      }
      slow.apply(u)
    }
    expect(fast.all(), text).toEqual(slow.all())
    expect(fast.drainFrame(), text).toEqual(slow.drainFrame())
  }
}

afterAll(() => printTally('push-scan'))

describe('fuzz: the push scanner agrees with parseFrame', () => {
  it(
    'takes every frame of the bench feed’s dialects (batch and typed), with parseFrame’s ticks',
    () => {
      check(
        'push scan: bench frames',
        fc.property(fc.oneof(benchFrame, benchSingle), (t) => void expect(agree(t)).toBe(true)),
        3000,
      )
    },
    fuzzTimeout(20_000),
  )

  it(
    'agrees with parseFrame on every frame it takes, of many shapes',
    () => {
      let taken = 0
      check(
        'push scan: frames of many shapes',
        fc.property(fc.oneof(frame, singleFrame), (t) => void (taken += +agree(t))),
        6000,
      )
      // A scanner that declined everything would pass the agreement trivially.
      expect(taken).toBeGreaterThan(100 * FUZZ_SCALE)
    },
    fuzzTimeout(30_000),
  )

  it(
    'agrees with parseFrame on mutated frames and arbitrary text (or declines)',
    () => {
      let taken = 0
      check(
        'push scan: mutated frames',
        fc.property(mutated, (t) => void (taken += +agree(t))),
        6000,
      )
      check(
        'push scan: arbitrary text',
        fc.property(fc.oneof(fc.string(), fc.json()), (t) => void agree(t)),
        3000,
      )
      expect(taken).toBeGreaterThan(100 * FUZZ_SCALE)
    },
    fuzzTimeout(30_000),
  )

  it(
    'leaves the store as parseFrame’s ticks do, frame for frame (packed figures merged)',
    () => {
      check(
        'push scan: store after packed merges',
        fc.property(storeFrames, (texts) => sameStores(texts)),
        1500,
      )
    },
    fuzzTimeout(30_000),
  )

  it('reads numbers as JSON.parse does, at the edges of its exact path', () => {
    const nums = [
      '0',
      '-0',
      '-0.0',
      '0.1',
      '123.4567',
      '123.45670000000001',
      '999999999999999',
      '9999999999999999',
      '0.0000000000000000000001',
      '0.00000000000000000000001',
      '1e3',
      '1E-3',
      '-2.5e+2',
      '1e400',
      '123456789012345.6',
      '0.1234567890123456789',
      '1764130000000',
    ]
    for (const n of nums) {
      const text = `{"event":"ticker","data":[{"symbol":"A","last":${n},"bid":1}]}`
      const fast = scanned(text)
      if (n === '1e400') expect(fast).toBeNull()
      else {
        expect(fast, n).not.toBeNull()
        expect(fast, n).toEqual(parseFrame(text, NOW).map(plain))
      }
    }
  })

  it('declines what is not JSON or not the batch dialect', () => {
    const declined = [
      '{"event":"ticker","data":[{"symbol":"A","last":01}]}',
      '{"event":"ticker","data":[{"symbol":"A","last":1.}]}',
      '{"event":"ticker","data":[{"symbol":"A","last":.5}]}',
      '{"event":"ticker","data":[{"symbol":"A","last":1,"last":2}]}',
      '{"event":"ticker","data":[{"symbol":"A\\u0042","last":1}]}',
      '{"event":"ticker","data":[{"symbol":"A","last":"1"}]}',
      '{"event":"ticker","data":[{"symbol":"A","last":1}]} ',
      '{"event":"ticker","data":[{"symbol":"A","last":1}],"market":"us"}',
      '{"event":"ticker", "data":[{"symbol":"A","last":1}]}',
      '{"event":"kline","data":[{"symbol":"A","last":1}]}',
      '{"event":"ticker","data":[]}',
      '{"event":"ticker","data":[{"symbol":"A"}]}',
      '{"event":"ticker","data":[{"last":1}]}',
    ]
    for (const text of declined) expect(scanned(text), text).toBeNull()
  })
})
