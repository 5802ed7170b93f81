import fc from 'fast-check'
import { overLimitStatus } from '../../src/core/rest/over-limit'
import { afterAll, describe, expect, it } from 'vitest'
import { parseBars, toEpochMs } from '../../src/core/bars/bar-time'
import { isTickdeskError } from '../../src/core/errors'
import { parseFrame } from '../../src/core/push/push-parser'
import { readReply } from '../../src/core/rest/rest-client'
import { parseTickerQuotes } from '../../src/core/rest/ticker-quote'
import { MARKETS } from '../../src/shared/markets/market'
import { INTERVALS } from '../../src/shared/quote'
import { check, fuzzTimeout, printTally } from './counted'

/** Service input is untrusted: push frames, REST bodies and bar times never crash us. */

const NOW = Date.UTC(2026, 0, 5, 14, 30)
const FRAME_TYPES = [
  'tick',
  'ticker',
  'quote',
  'candle',
  'kline',
  'ping',
  'pong',
  'error',
  'subscribed',
  'heartbeat',
  'x',
]
const loose = fc.oneof(
  fc.double(),
  fc.integer(),
  fc.string({ maxLength: 12 }),
  fc.constantFrom(null, true, '', 'NaN', '1e400', '-0', '0x10', ' 12 '),
  fc.constant(undefined),
)
/** Objects shaped like the service's frames, with every field possibly wrong. */
const frameLike = fc.record(
  {
    type: fc.constantFrom(...FRAME_TYPES),
    event: fc.constantFrom(...FRAME_TYPES),
    e: fc.constantFrom('24hrTicker', 'kline', 'x'),
    market: fc.oneof(fc.constantFrom(...MARKETS), fc.string({ maxLength: 8 })),
    symbol: fc.oneof(fc.constantFrom('BTCUSDT', 'EURUSD', ''), loose),
    s: fc.oneof(fc.constant('ETHUSDT'), loose),
    last: loose,
    price: loose,
    c: loose,
    ts: loose,
    data: fc.oneof(
      fc.anything({ maxDepth: 2 }),
      fc.array(fc.dictionary(fc.constantFrom('symbol', 'last', 'bid', 'ts'), loose), {
        maxLength: 4,
      }),
    ),
    k: fc.dictionary(fc.constantFrom('t', 'T', 'o', 'h', 'l', 'c', 'v', 'i', 's'), loose),
    code: fc.string({ maxLength: 20 }),
    symbols: fc.anything({ maxDepth: 1 }),
  },
  { requiredKeys: [] },
)
const frameText = fc.oneof(
  fc.string(),
  fc.json(),
  frameLike.map((f) => JSON.stringify(f)),
  fc.array(frameLike, { maxLength: 5 }).map((f) => JSON.stringify(f)),
  frameLike.map((f) => JSON.stringify(f).slice(0, -3)),
)
const finite = (n: unknown): boolean => typeof n === 'number' && Number.isFinite(n)

afterAll(() => printTally('parsers'))

describe('fuzz: parsers of service input', () => {
  it(
    'parseFrame never throws and yields only well-typed frames',
    () => {
      check(
        'push frames (parseFrame)',
        fc.property(frameText, (text) => {
          const frames = parseFrame(text, NOW)
          expect(Array.isArray(frames)).toBe(true)
          for (const f of frames) {
            if (f.kind === 'tick') {
              expect(typeof f.symbol === 'string' && f.symbol.length > 0).toBe(true)
              for (const v of Object.values(f.fields))
                expect(finite(v), JSON.stringify(f)).toBe(true)
              expect(f.ts === null || finite(f.ts)).toBe(true)
            }
            if (f.kind === 'candle')
              for (const v of Object.values(f.bar)) expect(finite(v), JSON.stringify(f)).toBe(true)
          }
        }),
        6000,
      )
    },
    fuzzTimeout(20_000),
  )

  it(
    'parseTickerQuotes returns finite fields or fails as BAD_RESPONSE, never anything else',
    () => {
      const body = fc.oneof(
        fc.anything({ maxDepth: 3 }),
        fc.array(frameLike, { maxLength: 6 }),
        fc.array(
          fc.dictionary(
            fc.constantFrom('symbol', 'last', 'bid', 'ask', 'closeTime', 'volume', 'prevClose'),
            loose,
          ),
          { maxLength: 6 },
        ),
      )
      check(
        'REST quote bodies (parseTickerQuotes)',
        fc.property(body, fc.constantFrom(...MARKETS), (raw, market) => {
          try {
            const { updates } = parseTickerQuotes(raw, market, Date.now())
            for (const u of updates) {
              expect(u.symbol.length).toBeGreaterThan(0)
              for (const v of Object.values(u.fields)) expect(finite(v)).toBe(true)
            }
          } catch (e) {
            expect(isTickdeskError(e) && e.code, String(e)).toBe('BAD_RESPONSE')
          }
        }),
        4000,
      )
    },
    fuzzTimeout(20_000),
  )

  it(
    'parseBars keeps only whole bars, ascending, one per open time',
    () => {
      const bar = fc.dictionary(
        fc.constantFrom(
          'openTime',
          'openTimeMs',
          'closeTime',
          'closeTimeMs',
          'open',
          'high',
          'low',
          'close',
          'volume',
        ),
        fc.oneof(
          loose,
          fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
        ),
      )
      check(
        'REST candle bodies (parseBars)',
        fc.property(
          fc.oneof(fc.anything({ maxDepth: 2 }), fc.array(bar, { maxLength: 8 })),
          fc.constantFrom(...INTERVALS),
          (raw, interval) => {
            const { bars, skipped } = parseBars(raw, interval)
            if (Array.isArray(raw)) expect(bars.length + skipped).toBeLessThanOrEqual(raw.length)
            for (let i = 0; i < bars.length; i++) {
              const b = bars[i]!
              for (const v of Object.values(b)) expect(finite(v)).toBe(true)
              expect(b.high).toBeGreaterThanOrEqual(b.low)
              expect(b.closeTime).toBeGreaterThanOrEqual(b.openTime)
              if (i > 0) expect(b.openTime).toBeGreaterThan(bars[i - 1]!.openTime)
            }
          },
        ),
        4000,
      )
    },
    fuzzTimeout(20_000),
  )

  it(
    'toEpochMs reads seconds, ms, µs, numeric strings and ISO dates as the same instant',
    () => {
      check(
        'bar times (toEpochMs)',
        fc.property(
          fc.integer({ min: Date.UTC(1990, 0, 1) / 1000, max: Date.UTC(2100, 0, 1) / 1000 }),
          (sec) => {
            const ms = sec * 1000
            expect(toEpochMs(sec)).toBe(ms)
            expect(toEpochMs(String(sec))).toBe(ms)
            expect(toEpochMs(ms)).toBe(ms)
            expect(toEpochMs(` ${ms} `)).toBe(ms)
            expect(toEpochMs(ms * 1000)).toBe(ms)
            expect(toEpochMs(new Date(ms).toISOString())).toBe(ms)
          },
        ),
        3000,
      )
      check(
        'bar times, any value (toEpochMs)',
        fc.property(
          fc.oneof(loose, fc.double({ min: -1e300, max: 1e300 }), fc.anything({ maxDepth: 1 })),
          (v) => {
            const out = toEpochMs(v)
            expect(out === null || (Number.isInteger(out) && out > 0 && out <= 8.64e15)).toBe(true)
            if (out !== null) expect(new Date(out).toISOString()).toBeTypeOf('string')
          },
        ),
        3000,
      )
    },
    fuzzTimeout(20_000),
  )

  it(
    'readReply returns data only for a 2xx success envelope, else a TickdeskError with a code',
    () => {
      const envelope = fc.record(
        {
          succ: fc.oneof(fc.boolean(), loose),
          data: fc.anything({ maxDepth: 2 }),
          msg: fc.oneof(fc.string({ maxLength: 600 }), loose),
          code: fc.oneof(
            fc.constantFrom('RATE_LIMIT_EXCEEDED', 'INVALID_SYMBOL', 'bad code', 'X'.repeat(70)),
            loose,
          ),
        },
        { requiredKeys: [] },
      )
      const body = fc.oneof(
        fc.string(),
        fc.json(),
        envelope.map((e) => JSON.stringify(e)),
        envelope.map((e) => JSON.stringify(e).slice(0, -2)),
        fc.constantFrom('<html>502 Bad Gateway</html>', '', 'null', '[]'),
      )
      const retryAfter = fc.option(
        fc.oneof(
          fc.string({ maxLength: 12 }),
          fc.nat().map(String),
          fc.date({ noInvalidDate: true }).map((d) => d.toUTCString()),
        ),
      )
      check(
        'REST envelopes (readReply)',
        fc.property(fc.integer({ min: 100, max: 599 }), body, retryAfter, (status, text, after) => {
          const reply = {
            status,
            ok: status >= 200 && status < 300,
            header: (name: string) => (name === 'retry-after' ? after : null),
            text,
          }
          let result: unknown = null
          try {
            result = readReply(reply, 'req-1', 'GET /v1/x', NOW)
          } catch (e) {
            expect(isTickdeskError(e), String(e)).toBe(true)
            if (!isTickdeskError(e)) return
            expect(e.code).toMatch(/^[A-Z0-9_]{1,64}$/)
            // A 401 whose body names an over-limit code is the 429 it stands for (spec: Errors;
            // some services refuse over-limit calls with 401): read as such, else UNAUTHORIZED.
            const read = overLimitStatus(status, e.code)
            expect(e.status).toBe(read)
            expect(e.message.length).toBeLessThan(700)
            if (read === 401) expect(e.code).toBe('UNAUTHORIZED')
            const wait = e.retryAfterMs
            expect(wait === null || (Number.isFinite(wait) && wait >= 0)).toBe(true)
            return
          }
          expect(reply.ok).toBe(true)
          expect((JSON.parse(text) as { succ: unknown }).succ).toBe(true)
          expect(result).toHaveProperty('requestId', 'req-1')
        }),
        4000,
      )
    },
    fuzzTimeout(20_000),
  )
})
