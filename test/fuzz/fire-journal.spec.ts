import { mkdtempSync, readFileSync, statSync, truncateSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { FireJournal } from '../../src/core/persistence/fire-journal'
import type { FiredAlert } from '../../src/shared/alerts/alert'
import { check, fuzzTimeout, printTally } from './counted'

/**
 * The alert fire journal inside the fuzz: random runs of appends (fired,
 * try, done, gave up, dropped) cut at a random byte, as a kill -9 mid-append leaves it. Reading
 * never throws, keeps every fire whose line was whole, skips at most the torn last line, a fire
 * appended after the cut (the next run) is read whole, and a compaction (rewrite) of what was
 * read reads back the same.
 */

afterAll(() => printTally('fire-journal'))

const alert = (id: string, at: number): FiredAlert => ({
  id,
  ruleId: `r-${id}`,
  key: 'crypto:BTCUSDT',
  message: `BTCUSDT above ${at}`,
  price: at,
  at,
  whileAway: false,
  awaySince: null,
  quoteAt: null,
  firedBy: 'runner',
})

const Op = fc.oneof(
  fc.record({ kind: fc.constant('fired' as const), at: fc.integer({ min: 0, max: 1e12 }) }),
  fc.record({
    kind: fc.constantFrom('try' as const, 'done' as const, 'gaveUp' as const, 'dropped' as const),
    which: fc.nat(),
    to: fc.constantFrom('stdout', 'desktop', 'webhook:w1'),
  }),
)

describe('fire journal: random appends, cut anywhere', () => {
  it(
    'reads every whole fire, skips at most the torn line, and compacts to the same',
    () =>
      check(
        'fire journal cut mid-append',
        fc.property(
          fc.array(Op, { maxLength: 30 }),
          fc.double({ min: 0, max: 1, noNaN: true }),
          (ops, cut) => {
            const journal = new FireJournal(mkdtempSync(join(tmpdir(), 'tickdesk-fuzz-journal-')))
            const ids: string[] = []
            let seq = 0
            for (const op of ops) {
              if (op.kind === 'fired') {
                const id = `f${ids.length}`
                ids.push(id)
                journal.fired([
                  {
                    alert: alert(id, op.at),
                    state: {
                      ruleId: `r-${id}`,
                      status: 'triggered',
                      lastFiredAt: op.at,
                      lastPrice: op.at,
                      lastSeenAt: op.at,
                      seq: ++seq,
                    },
                    owed: ['webhook:w1'],
                    seq,
                  },
                ])
                continue
              }
              if (ids.length === 0) continue
              const id = ids[op.which % ids.length] as string
              const why = { why: 'no answer within 5 s', at: 1 }
              if (op.kind === 'try') journal.tried(id, op.to)
              else if (op.kind === 'done') journal.done(id, op.to)
              else if (op.kind === 'gaveUp') journal.gaveUp(id, op.to, why)
              else journal.dropped(id, op.to, why)
            }
            const size = ids.length === 0 ? 0 : statSync(journal.path).size
            const at = Math.floor(size * cut)
            const text = size === 0 ? '' : readFileSync(journal.path, 'utf8').slice(0, at)
            if (size > 0) truncateSync(journal.path, at)
            const read = journal.read()
            // Whole: a line that still parses (the cut may take only the last newline).
            const whole = text.split('\n').filter((l) => {
              try {
                JSON.parse(l)
                return true
              } catch {
                return false
              }
            })
            const wholeFired = whole.filter((l) => l.startsWith('{"fired"')).length
            expect(read.fires).toHaveLength(wholeFired)
            expect(read.skipped).toBeLessThanOrEqual(1)
            expect(read.fires.map((f) => f.seq)).toEqual(
              read.fires.map((f) => f.seq).sort((a, b) => (a ?? 0) - (b ?? 0)),
            )
            // The next run appends after whatever the kill left: its fire must be read whole,
            // not glued to a torn last line.
            const next = `f${ids.length}`
            journal.fired([
              {
                alert: alert(next, 1),
                state: {
                  ruleId: `r-${next}`,
                  status: 'triggered',
                  lastFiredAt: 1,
                  lastPrice: 1,
                  lastSeenAt: 1,
                  seq: seq + 1,
                },
                owed: [],
                seq: seq + 1,
              },
            ])
            const appended = journal.read()
            expect(appended.fires.map((f) => f.alert.id)).toEqual([
              ...read.fires.map((f) => f.alert.id),
              next,
            ])
            expect(appended.skipped).toBe(read.skipped)
            journal.rewrite(read.fires)
            const again = journal.read()
            expect(again.skipped).toBe(0)
            const view = (r: typeof read): unknown =>
              r.fires.map((f) => [
                f.alert,
                f.seq,
                [...f.done].sort(),
                [...f.tried].sort(),
                [...f.gaveUp].sort(),
              ])
            expect(view(again)).toEqual(view(read))
          },
        ),
        300,
      ),
    fuzzTimeout(60_000),
  )
})
