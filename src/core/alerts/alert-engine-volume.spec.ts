import { describe, expect, it } from 'vitest'
import { FakeClock } from '../clock'
import { alertRule } from '../testing/alert-rule'
import { AlertEngine } from './alert-engine'
import type { AlertRule, FiredAlert } from '../../shared/alerts/alert'
import { blankQuote, type Quote } from '../../shared/quote'
import { volumeNote } from '../../shared/alerts/alert-volume'

const MIN = 60_000

const rule = alertRule

function setup(r: AlertRule): {
  clock: FakeClock
  feed: (dayVolume: number | null, q?: Partial<Quote>) => FiredAlert[]
} {
  const clock = new FakeClock()
  const engine = new AlertEngine({ clock, newId: () => 'a' })
  engine.setRules([r])
  return {
    clock,
    feed: (volume, q) =>
      engine.evaluate({ ...blankQuote('crypto', 'BTCUSDT', 0, 'stream'), last: 100, volume, ...q }),
  }
}

describe('AlertEngine: volume above N in M minutes', () => {
  it('fires once when the day volume rises by N within the window', () => {
    const { clock, feed } = setup(rule({ kind: 'volume', amount: 500, minutes: 5 }))
    expect(feed(10_000)).toEqual([])
    clock.advance(MIN)
    expect(feed(10_300)).toEqual([])
    clock.advance(MIN)
    const [fired] = feed(10_520)
    expect(fired?.message).toBe('BTCUSDT traded 520 within 5 min, past 500 (100)')
    clock.advance(MIN)
    expect(feed(11_900)).toEqual([]) // once: fired for this arming
  })

  it('does not count what traded before the window', () => {
    const { clock, feed } = setup(rule({ kind: 'volume', amount: 500, minutes: 5 }))
    feed(10_000)
    clock.advance(MIN)
    feed(10_400)
    clock.advance(6 * MIN)
    expect(feed(10_700)).toEqual([]) // 400 fell out of the window: 300 in the last 5 min
    clock.advance(MIN)
    expect(feed(10_950)).toHaveLength(1) // 550 within 5 min
  })

  it('never fires without volume, and starts afresh when the day total resets', () => {
    const none = setup(rule({ kind: 'volume', amount: 1, minutes: 5 }))
    expect(none.feed(null)).toEqual([])
    expect(none.feed(null)).toEqual([])
    const { clock, feed } = setup(rule({ kind: 'volume', amount: 500, minutes: 60 }))
    feed(90_000)
    clock.advance(MIN)
    expect(feed(200)).toEqual([]) // a new day: the fall is not a trade
    clock.advance(MIN)
    expect(feed(800)).toHaveLength(1)
  })

  it('re-arms once the window holds less than N again', () => {
    const { clock, feed } = setup(
      rule({ kind: 'volume', amount: 100, minutes: 2 }, { repeat: 'rearm' }),
    )
    feed(0)
    clock.advance(10_000)
    expect(feed(150)).toHaveLength(1)
    clock.advance(10_000)
    expect(feed(300)).toEqual([]) // still above: counted afresh from the fire, 150 ≥ 100, no re-arm
    clock.advance(3 * MIN)
    expect(feed(320)).toEqual([]) // 20 in the window: re-armed
    clock.advance(10_000)
    expect(feed(450)).toHaveLength(1)
  })
})

describe('volumeNote', () => {
  it('is silent for crypto, warns for markets whose quotes may carry none, refuses on a null', () => {
    expect(volumeNote('crypto:BTCUSDT')).toBeNull()
    expect(volumeNote('fx:EURUSD')).toMatch(/may send no volume for fx/)
    expect(volumeNote('fx:EURUSD', 12)).toBeNull()
    expect(volumeNote('crypto:BTCUSDT', null)).toMatch(/BTCUSDT has no volume from the service/)
  })
})
