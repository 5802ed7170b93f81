import fc from 'fast-check'
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { DrawingBook } from '../../src/app/drawings/drawing-book'
import type { BridgeEvent } from '../../src/shared/bridge'
import { DrawingSchema, type Drawing } from '../../src/shared/drawings/drawing'
import { shifted, withAnchor } from '../../src/shared/drawings/drawing-geometry'
import { check, fuzzTimeout, printTally } from './counted'

/**
 * Drawings, fuzzed: any drawings.json (and any backup) loads as a value the book can save again,
 * a damaged one moved aside and told; and no edit of a drawing (a point dragged anywhere, the
 * whole drawing shifted) makes one the schema refuses: an edit gives a valid drawing or nothing.
 */
afterAll(() => printTally('drawings'))

const time = fc.integer({ min: 0, max: 4_000_000_000_000 })
const price = fc.double({ min: 1e-6, max: 1e7, noNaN: true })
const point = fc.record({ t: time, price })

const drawing: fc.Arbitrary<Drawing> = fc.oneof(
  price.map((p): Drawing => ({ kind: 'line', id: 'h', line: { shape: 'hline', price: p } })),
  point.map((from): Drawing => ({ kind: 'line', id: 'r', line: { shape: 'ray', from } })),
  fc
    .tuple(point, point)
    .filter(([a, b]) => a.t !== b.t)
    .map(([p, q]): Drawing => {
      const [a, b] = p.t < q.t ? [p, q] : [q, p]
      return { kind: 'line', id: 't', line: { shape: 'trend', a, b } }
    }),
  fc
    .tuple(time, fc.option(time), price, price)
    .filter(([from, to, lo, hi]) => lo !== hi && (to === null || to > from))
    .map(([from, to, lo, hi]): Drawing => ({
      kind: 'range',
      id: 'g',
      range: { from, to, low: Math.min(lo, hi), high: Math.max(lo, hi) },
    })),
)

describe('fuzz: drawings', () => {
  it('refuses to move a range so thin that it would collapse at its new price (found by the fuzz)', () => {
    const thin: Drawing = {
      kind: 'range',
      id: 'g',
      range: { from: 611288693812, to: 4048085068821, low: 1e-11, high: 2e-11 },
    }
    expect(DrawingSchema.safeParse(thin).success).toBe(true)
    expect(shifted(thin, 0, 1_000_000)).toBeNull()
    const moved = shifted(thin, 0, 1)
    expect(moved === null || DrawingSchema.safeParse(moved).success).toBe(true)
  })

  it(
    'an edit of a drawing gives a drawing the schema takes, or none',
    () => {
      check(
        'drawing edits (withAnchor, shifted)',
        fc.property(
          drawing,
          fc.constantFrom('a' as const, 'b' as const),
          point,
          fc.integer({ min: -1e12, max: 1e12 }),
          fc.double({ min: -1e6, max: 1e6, noNaN: true }),
          (d, anchor, p, dt, dp) => {
            for (const next of [withAnchor(d, anchor, p), shifted(d, dt, dp)])
              if (next !== null)
                expect(DrawingSchema.safeParse(next).success, JSON.stringify(next)).toBe(true)
          },
        ),
        1000,
      )
    },
    fuzzTimeout(20_000),
  )

  it(
    'drawings.json: any content (and any backup) loads as drawings that save again',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'tickdesk-fuzz-drawings-'))
      const good = JSON.stringify({
        version: 1,
        data: {
          charts: {
            'crypto:BTCUSDT|intraday': [
              { kind: 'line', id: 'h', line: { shape: 'hline', price: 5 } },
            ],
          },
        },
      })
      const mangled = fc.oneof(
        fc.string(),
        fc.json(),
        fc.nat({ max: good.length }).map((n) => good.slice(0, n)),
        fc
          .anything({ maxDepth: 4 })
          .map((d) => JSON.stringify({ version: 1, data: { charts: d } })),
        fc.integer().map((v) => JSON.stringify({ version: v, data: { charts: {} } })),
      )
      await check(
        'drawings files (DrawingBook, then save)',
        fc.asyncProperty(
          mangled,
          fc.option(fc.oneof(fc.constant(good), mangled)),
          async (content, backup) => {
            rmSync(dir, { recursive: true, force: true })
            mkdirSync(dir)
            writeFileSync(join(dir, 'drawings.json'), content)
            if (backup !== null) writeFileSync(join(dir, 'drawings.bak.json'), backup)
            const told: unknown[] = []
            const events: BridgeEvent[] = []
            const book = new DrawingBook(
              dir,
              { warnOfFile: (p) => p && told.push(p) },
              { emit: (e) => events.push(e) },
            )
            const shown = await book.of('crypto:BTCUSDT', 'intraday')
            expect(readdirSync(dir).some((f) => f.includes('.corrupt-'))).toBe(told.length > 0)
            await book.save('crypto:BTCUSDT', 'intraday', shown)
          },
        ),
        150,
      )
    },
    fuzzTimeout(20_000),
  )
})
