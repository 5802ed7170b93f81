import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { FakeClock } from '../core/clock'
import { blankQuote } from '../shared/quote'
import { WatchJsonWriter } from './watch-lines'

function written(out: PassThrough): Record<string, unknown>[] {
  const text = String(out.read() ?? '')
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>)
}

describe('WatchJsonWriter quote lines', () => {
  it("carry the session at the clock's time, not the quote's: Hong Kong lunch, then after 16:00", () => {
    // Tuesday 10 March 2026, 12:30 Hong Kong time; the quote itself is from the morning.
    const clock = new FakeClock(Date.UTC(2026, 2, 10, 4, 30))
    const out = new PassThrough()
    const writer = new WatchJsonWriter(out, clock)
    const q = { ...blankQuote('hk', '00700', Date.UTC(2026, 2, 10, 2, 0), 'poll'), last: 380 }
    writer.quote(q)
    clock.advance(4 * 3_600_000)
    writer.quote(q)
    expect(written(out).map((l) => [l.session, l.sessionNext])).toEqual([
      ['break', Date.UTC(2026, 2, 10, 5, 0)],
      ['closed', Date.UTC(2026, 2, 11, 1, 30)],
    ])
  })
})
