import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MARKETS } from './market'
import { sessionAt, sessionOf } from './market-sessions'
import { TIMETABLES } from './market-timetables'

const at = (iso: string): number => Date.parse(iso)

describe('sessionAt', () => {
  it('keeps crypto and perpetuals open around the clock', () => {
    for (const when of ['2026-03-07T12:00:00Z', '2026-12-25T03:00:00Z']) {
      const s = sessionAt('crypto', 'BTCUSDT', at(when))
      expect(s).toMatchObject({ state: 'open', nextChange: null, label: 'open 24/7' })
      expect(sessionAt('usdt-futures', 'ETHUSDT', at(when)).state).toBe('open')
    }
  })

  describe('US indices across the March 2026 change to daylight time (Sunday 8 March)', () => {
    it('opens at 14:30 UTC on the Friday before and 13:30 UTC on the Monday after', () => {
      const friday = sessionAt('index', 'SPX', at('2026-03-06T14:29:00Z'))
      expect(friday).toMatchObject({ state: 'pre', nextState: 'open', label: 'opens 09:30 ET' })
      expect(friday.nextChange).toBe(at('2026-03-06T14:30:00Z'))
      const monday = sessionAt('index', 'SPX', at('2026-03-09T13:29:00Z'))
      expect(monday).toMatchObject({ state: 'pre', nextChange: at('2026-03-09T13:30:00Z') })
      expect(sessionAt('index', 'SPX', at('2026-03-09T13:30:00Z')).state).toBe('open')
    })

    it('from the weekend, names Monday 04:00 New York time, already in daylight time', () => {
      const s = sessionAt('index', 'NDX', at('2026-03-07T12:00:00Z'))
      expect(s).toMatchObject({
        state: 'closed',
        nextState: 'pre',
        label: 'pre-market Mon 04:00 ET',
      })
      expect(s.nextChange).toBe(at('2026-03-09T08:00:00Z'))
    })

    it('runs the post-market from 16:00 to 20:00', () => {
      const s = sessionAt('index', 'SPX', at('2026-03-06T21:00:00Z'))
      expect(s).toMatchObject({ state: 'post', stateName: 'Post-market', nextState: 'closed' })
      expect(s.label).toBe('post-market ends 20:00 ET')
      expect(s.nextChange).toBe(at('2026-03-07T01:00:00Z'))
    })
  })

  describe('US indices across the November 2026 change back (Sunday 1 November)', () => {
    it('closes at 20:00 UTC on Friday 30 October and opens 14:30 UTC on Monday 2 November', () => {
      const friday = sessionAt('index', 'SPX', at('2026-10-30T13:30:00Z'))
      expect(friday).toMatchObject({ state: 'open', nextState: 'post', label: 'closes 16:00 ET' })
      expect(friday.nextChange).toBe(at('2026-10-30T20:00:00Z'))
      const monday = sessionAt('index', 'SPX', at('2026-11-02T14:00:00Z'))
      expect(monday).toMatchObject({ state: 'pre', nextChange: at('2026-11-02T14:30:00Z') })
      const weekend = sessionAt('index', 'SPX', at('2026-10-31T18:00:00Z'))
      expect(weekend.nextChange).toBe(at('2026-11-02T09:00:00Z'))
    })
  })

  describe('A-shares (Shanghai time)', () => {
    it('takes a lunch break from 11:30 to 13:00', () => {
      const before = sessionAt('cn', '600519', at('2026-03-10T03:29:59Z'))
      expect(before).toMatchObject({
        state: 'open',
        nextState: 'break',
        label: 'lunch break 11:30 BJT',
      })
      const lunch = sessionAt('cn', '600519', at('2026-03-10T03:45:00Z'))
      expect(lunch).toMatchObject({
        state: 'break',
        stateName: 'Lunch break',
        nextState: 'open',
        nextChange: at('2026-03-10T05:00:00Z'),
        label: 'opens 13:00 BJT',
      })
    })

    it('after 15:00 opens again the next morning', () => {
      const s = sessionAt('cn', '600519', at('2026-03-10T07:00:00Z'))
      expect(s).toMatchObject({ state: 'closed', label: 'opens Wed 09:30 BJT' })
      expect(s.nextChange).toBe(at('2026-03-11T01:30:00Z'))
    })

    it('stays closed through the National Day holiday until 8 October', () => {
      const s = sessionAt('cn', '600519', at('2026-10-02T03:00:00Z'))
      expect(s).toMatchObject({ state: 'closed', holiday: 'National Day' })
      expect(s.nextChange).toBe(at('2026-10-08T01:30:00Z'))
      expect(s.label).toBe('opens Thu 09:30 BJT')
      const before = sessionAt('cn', '600519', at('2026-09-30T08:00:00Z'))
      expect(before).toMatchObject({ state: 'closed', label: 'opens 8 Oct 09:30 BJT' })
    })
  })

  describe('Hong Kong', () => {
    it('says "opens 13:00 HKT" at lunch and is closed after 16:00 until 09:30 next day', () => {
      expect(sessionAt('hk', '00700', at('2026-03-10T04:30:00Z')).label).toBe('opens 13:00 HKT')
      const late = sessionAt('hk', '00700', at('2026-03-10T08:30:00Z'))
      expect(late).toMatchObject({ state: 'closed', label: 'opens Wed 09:30 HKT' })
      expect(late.nextChange).toBe(at('2026-03-11T01:30:00Z'))
    })

    it("trades only the morning on Lunar New Year's Eve and reopens after the three days", () => {
      const eve = sessionAt('hk', '00700', at('2026-02-16T03:59:00Z'))
      expect(eve).toMatchObject({ state: 'open', nextState: 'closed', label: 'closes 12:00 HKT' })
      const after = sessionAt('hk', '00700', at('2026-02-16T05:00:00Z'))
      expect(after).toMatchObject({ state: 'closed', nextChange: at('2026-02-20T01:30:00Z') })
    })

    it('gives the Hang Seng index Hong Kong hours', () => {
      expect(sessionAt('index', 'HSI', at('2026-03-10T04:30:00Z')).state).toBe('break')
    })
  })

  describe('FX', () => {
    it('closes Friday 17:00 New York and reopens Sunday 17:00, across the DST change', () => {
      const friday = sessionAt('fx', 'EURUSD', at('2026-03-06T21:59:00Z'))
      expect(friday).toMatchObject({ state: 'open', label: 'closes 17:00 ET' })
      expect(friday.nextChange).toBe(at('2026-03-06T22:00:00Z'))
      const saturday = sessionAt('fx', 'EURUSD', at('2026-03-07T12:00:00Z'))
      expect(saturday).toMatchObject({ state: 'closed', label: 'opens Sun 17:00 ET' })
      expect(saturday.nextChange).toBe(at('2026-03-08T21:00:00Z'))
    })
  })

  describe('futures (CME Globex, Chicago time)', () => {
    it('halts daily from 16:00 to 17:00 and closes Friday 16:00 until Sunday 17:00', () => {
      const halt = sessionAt('futures', 'ES1!', at('2026-03-10T21:30:00Z'))
      expect(halt).toMatchObject({
        state: 'break',
        stateName: 'Daily halt',
        nextChange: at('2026-03-10T22:00:00Z'),
        label: 'opens 17:00 CT',
      })
      const friday = sessionAt('futures', 'ES1!', at('2026-03-13T21:30:00Z'))
      expect(friday).toMatchObject({ state: 'closed', nextChange: at('2026-03-15T22:00:00Z') })
    })

    it('does not open Thursday evening before Good Friday', () => {
      const s = sessionAt('futures', 'CL1!', at('2026-04-02T21:00:00Z'))
      expect(s).toMatchObject({ state: 'closed', holiday: 'Good Friday' })
      expect(s.nextChange).toBe(at('2026-04-05T22:00:00Z'))
    })

    it('halts at noon on Martin Luther King Jr. Day and reopens at 17:00', () => {
      expect(sessionAt('futures', 'ES1!', at('2026-01-19T17:59:00Z')).state).toBe('open')
      const s = sessionAt('futures', 'ES1!', at('2026-01-19T18:30:00Z'))
      expect(s).toMatchObject({ state: 'closed', holiday: 'Martin Luther King Jr. Day' })
      expect(s.nextChange).toBe(at('2026-01-19T23:00:00Z'))
    })
  })

  describe('US holidays', () => {
    it('keeps the US indices closed on Good Friday, pre-market again Monday 04:00', () => {
      const s = sessionAt('index', 'SPX', at('2026-04-03T15:00:00Z'))
      expect(s).toMatchObject({ state: 'closed', holiday: 'Good Friday', nextState: 'pre' })
      expect(s.nextChange).toBe(at('2026-04-06T08:00:00Z'))
    })

    it('closes at 13:00 the day after Thanksgiving, post-market to 17:00', () => {
      const s = sessionAt('index', 'SPX', at('2026-11-27T17:59:00Z'))
      expect(s).toMatchObject({ state: 'open', nextChange: at('2026-11-27T18:00:00Z') })
      expect(sessionAt('index', 'SPX', at('2026-11-27T21:59:00Z')).state).toBe('post')
    })

    it('knows 2027 too: Good Friday 26 March', () => {
      expect(sessionAt('index', 'SPX', at('2027-03-26T15:00:00Z')).holiday).toBe('Good Friday')
    })
  })

  it('names the next state correctly wherever it looks, in every timetable', () => {
    const start = at('2026-01-01T00:00:00Z')
    const end = at('2027-12-01T00:00:00Z')
    fc.assert(
      fc.property(
        fc.constantFrom(...Object.values(TIMETABLES)),
        fc.integer({ min: start, max: end }),
        (tt, t) => {
          const s = sessionOf(tt, t)
          if (s.nextChange === null) return tt.week === 'always'
          return (
            s.nextChange > t &&
            sessionOf(tt, s.nextChange - 1).state === s.state &&
            sessionOf(tt, s.nextChange).state === s.nextState &&
            s.nextState !== s.state
          )
        },
      ),
      { numRuns: 2000 },
    )
  })

  it('answers alike whatever order it is asked in (answers are kept per span)', () => {
    const start = at('2026-11-20T00:00:00Z')
    const week = 7 * 86_400_000
    fc.assert(
      fc.property(
        fc.constantFrom(...Object.values(TIMETABLES)),
        fc.array(fc.integer({ min: start, max: start + week }), { minLength: 2, maxLength: 24 }),
        (tt, times) => {
          const seen = (t: number): string => {
            const s = sessionOf(tt, t)
            return `${s.state} ${s.nextChange} ${s.label}`
          }
          const first = times.map(seen)
          const again = [...times].reverse().map(seen).reverse()
          return first.every((a, i) => a === again[i])
        },
      ),
      { numRuns: 300 },
    )
  })

  it('has a timetable for every market', () => {
    for (const m of MARKETS)
      expect(sessionAt(m, undefined, at('2026-03-10T03:00:00Z')).timetable).toBeTruthy()
  })
})
