import { describe, expect, it } from 'vitest'
import { FakeClock } from '../clock'
import { alertRule } from '../testing/alert-rule'
import { AlertEngine } from './alert-engine'
import { QuoteStore } from '../quotes/quote-store'
import { fireJson } from '../../shared/alerts/fire-json'
import type { AlertCondition } from '../../shared/alerts/alert'
import type { QuoteFields } from '../quotes/quote-fields'

/** Rules on a symbol the service quotes with bid and ask only: they watch the mid, and say so. */

function setup(condition: AlertCondition): {
  engine: AlertEngine
  tick: (fields: QuoteFields) => ReturnType<AlertEngine['evaluate']>
} {
  const clock = new FakeClock()
  const store = new QuoteStore(clock)
  const engine = new AlertEngine({ clock, newId: () => 'a1' })
  engine.setRules([alertRule(condition, { key: 'fx:EURUSD', repeat: 'rearm', hysteresisPct: 0 })])
  const tick = (fields: QuoteFields): ReturnType<AlertEngine['evaluate']> =>
    engine.evaluate(
      store.apply({ market: 'fx', symbol: 'EURUSD', fields, ts: null, source: 'stream' }),
    )
  return { engine, tick }
}

describe('AlertEngine on a price that is the mid of bid and ask', () => {
  it('fires on the mid and names it: "EURUSD mid is above 1.085 (1.0851)"', () => {
    const { engine, tick } = setup({ kind: 'above', price: 1.085 })
    const [fired] = tick({ bid: 1.085, ask: 1.0852 })
    expect(fired?.message).toBe('EURUSD mid is above 1.085 (1.0851)')
    expect(fired).toMatchObject({ price: 1.0851, priceIs: 'mid' })
    expect(fireJson(fired!)).toMatchObject({ priceIs: 'mid', message: fired?.message })
    expect(engine.stateOf('r1')?.watches).toBe('mid')
  })

  it('says "crossed" on the mid once it moved through the level', () => {
    const { tick } = setup({ kind: 'crosses', price: 1.085 })
    expect(tick({ bid: 1.0846, ask: 1.0848 })).toEqual([])
    expect(tick({ bid: 1.0852, ask: 1.0854 })[0]?.message).toBe(
      'EURUSD mid crossed above 1.085 (1.0853)',
    )
  })

  it('keeps today’s words once the service sends a last', () => {
    const { engine, tick } = setup({ kind: 'above', price: 1.085 })
    tick({ bid: 1.0846, ask: 1.0848 })
    const [fired] = tick({ last: 1.0855, bid: 1.0854, ask: 1.0856 })
    expect(fired?.message).toBe('EURUSD crossed above 1.085 (1.0855)')
    expect(fired?.priceIs).toBeUndefined()
    expect(fireJson(fired!).priceIs).toBe('last')
    expect(engine.stateOf('r1')?.watches).toBeUndefined()
  })

  it('names no figure for rules on the spread, which is not the price', () => {
    const { tick } = setup({ kind: 'spread', above: 1, unit: 'bps' })
    expect(tick({ bid: 1.0846, ask: 1.0848 })[0]?.message).toMatch(/^EURUSD spread /)
  })
})
