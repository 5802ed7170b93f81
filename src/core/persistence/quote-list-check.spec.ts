import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { blankQuote, QUOTE_FIGURES, QuoteSchema, type Quote } from '../../shared/quote'
import { seededRandom } from '../random'
import { quoteListProblem } from './quote-list-check'

const schema = z.array(QuoteSchema)

function quote(i: number): Quote {
  const q = blankQuote(i % 2 ? 'crypto' : 'hk', `S${i}`, 1_767_623_400_000 + i, 'poll')
  QUOTE_FIGURES.forEach((f, j) => {
    if ((i + j) % 3 !== 0) q[f] = (i + 1) * (j - 4.5)
  })
  return q
}

/** Values the schema may meet in a field: good ones and every kind of damage. */
const ODD: unknown[] = [
  undefined,
  null,
  0,
  -1.5,
  Infinity,
  -Infinity,
  NaN,
  '1.5',
  '',
  true,
  false,
  {},
  [],
  'crypto',
  'nasdaq',
  'stream',
  'cache',
  'live',
]

describe('quoteListProblem', () => {
  it('passes what the schema passes and refuses what it refuses, field by field', () => {
    const good = [quote(1), quote(2), quote(3)]
    expect(schema.safeParse(good).success).toBe(true)
    expect(quoteListProblem(good)).toBeNull()
    const fields = Object.keys(quote(0)) as Array<keyof Quote>
    let refused = 0
    for (const field of fields) {
      for (const odd of ODD) {
        const list: unknown[] = [quote(1), { ...quote(2), [field]: odd }]
        if (odd === undefined) delete (list[1] as Record<string, unknown>)[field]
        const schemaSays = schema.safeParse(list).success
        expect({ field, odd, ok: quoteListProblem(list) === null }).toEqual({
          field,
          odd,
          ok: schemaSays,
        })
        if (!schemaSays) refused++
      }
    }
    // Most of those are damage: the comparison is not between two checks that pass everything.
    expect(refused).toBeGreaterThan(fields.length * 10)
  })

  it('agrees with the schema on randomly damaged lists and on what is not a list of quotes', () => {
    const rnd = seededRandom(11)
    const fields = Object.keys(quote(0)) as Array<keyof Quote>
    for (let n = 0; n < 300; n++) {
      const list: unknown[] = Array.from({ length: 1 + Math.floor(rnd() * 5) }, (_, i) => quote(i))
      if (rnd() < 0.7) {
        const at = Math.floor(rnd() * list.length)
        const field = fields[Math.floor(rnd() * fields.length)] as string
        list[at] = { ...(list[at] as object), [field]: ODD[Math.floor(rnd() * ODD.length)] }
      }
      expect(quoteListProblem(list) === null).toBe(schema.safeParse(list).success)
    }
    for (const odd of [null, undefined, 'x', 1, {}, [null], [[]], ['q']])
      expect(quoteListProblem(odd) === null).toBe(schema.safeParse(odd).success)
  })

  it('names the first quote and field at fault', () => {
    expect(quoteListProblem([quote(1), { ...quote(2), last: NaN }])).toBe('1.last')
  })
})
