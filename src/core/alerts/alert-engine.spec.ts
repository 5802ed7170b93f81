import { describe, expect, it } from 'vitest'
import { FakeClock } from '../clock'
import { alertRule } from '../testing/alert-rule'
import { AlertEngine } from './alert-engine'
import { MoveWindow } from './alert-conditions'
import type { AlertRule, FiredAlert } from '../../shared/alerts/alert'
import { blankQuote, type Quote } from '../../shared/quote'

const MIN = 60_000

const rule = alertRule

function quote(last: number, over: Partial<Quote> = {}): Quote {
  return { ...blankQuote('crypto', 'BTCUSDT', 0, 'stream'), last, ...over }
}

function setup(rules: AlertRule[]): {
  clock: FakeClock
  engine: AlertEngine
  feed: (p: number, q?: Partial<Quote>) => FiredAlert[]
} {
  const clock = new FakeClock()
  let n = 0
  const engine = new AlertEngine({ clock, newId: () => `a${++n}` })
  engine.setRules(rules)
  return { clock, engine, feed: (p, q) => engine.evaluate(quote(p, q)) }
}

describe('AlertEngine conditions', () => {
  it('fires "above" when the price reaches the level, with a message a trader reads', () => {
    const { feed } = setup([rule({ kind: 'above', price: 65_000 })])
    expect(feed(64_999)).toEqual([])
    const [fired] = feed(65_012.5)
    expect(fired).toMatchObject({
      ruleId: 'r1',
      key: 'crypto:BTCUSDT',
      price: 65_012.5,
      whileAway: false,
    })
    expect(fired?.message).toBe('BTCUSDT crossed above 65,000 (65,012.5)')
  })

  it('fires "below" when the price reaches the level from above', () => {
    const { feed } = setup([rule({ kind: 'below', price: 100 })])
    expect(feed(101)).toEqual([])
    expect(feed(99.5)[0]?.message).toBe('BTCUSDT crossed below 100 (99.5)')
  })

  it('says "is below", not "crossed", for a level already met when the rule first sees a price', () => {
    const { feed } = setup([rule({ kind: 'below', price: 330.16 })])
    expect(feed(165.08)[0]?.message).toBe('BTCUSDT is below 330.16 (165.08)')
  })

  it('says "is above" when every price seen was already above the level', () => {
    const { feed } = setup([
      rule({ kind: 'above', price: 100 }, { repeat: 'rearm', hysteresisPct: 0 }),
    ])
    expect(feed(120)[0]?.message).toBe('BTCUSDT is above 100 (120)')
  })

  it('fires "crosses" only on a move from one side to the other, in either direction', () => {
    const { feed } = setup([
      rule({ kind: 'crosses', price: 100 }, { repeat: 'rearm', hysteresisPct: 0 }),
    ])
    expect(feed(105)).toEqual([]) // no previous price: no crossing yet
    expect(feed(104)).toEqual([])
    expect(feed(99)[0]?.message).toBe('BTCUSDT crossed below 100 (99)')
    expect(feed(101)[0]?.message).toBe('BTCUSDT crossed above 100 (101)')
  })

  it('fires dayChangePct at or beyond a positive level and at or below a negative one', () => {
    const up = setup([rule({ kind: 'dayChangePct', pct: 5 })])
    expect(up.feed(104, { changePercent: 4.9 })).toEqual([])
    expect(up.feed(105, { changePercent: 5.1 })[0]?.message).toBe(
      'BTCUSDT +5.1% today, past +5% (105)',
    )
    const down = setup([rule({ kind: 'dayChangePct', pct: -3 })])
    expect(down.feed(98, { changePercent: 3.5 })).toEqual([])
    expect(down.feed(97, { changePercent: -3 })).toHaveLength(1)
  })

  it('fires movePct on a move of at least pct within the window, in either direction', () => {
    const { clock, feed } = setup([rule({ kind: 'movePct', pct: 2, minutes: 5 })])
    feed(100)
    clock.advance(MIN)
    expect(feed(101)).toEqual([])
    clock.advance(MIN)
    const [fired] = feed(97.9)
    expect(fired?.message).toBe('BTCUSDT moved -3.07% within 5 min (97.9)')
  })

  it('ignores movePct moves that took longer than the window', () => {
    const { clock, feed } = setup([rule({ kind: 'movePct', pct: 2, minutes: 5 })])
    feed(100)
    for (let i = 1; i <= 10; i++) {
      clock.advance(MIN)
      expect(feed(100 + i * 0.3)).toEqual([]) // 3% over 10 min, never 2% within 5
    }
  })

  it('does not evaluate stale, cached or price-less quotes', () => {
    const { feed } = setup([rule({ kind: 'above', price: 10 })])
    expect(feed(20, { stale: true })).toEqual([])
    expect(feed(20, { source: 'cache', stale: true })).toEqual([])
    expect(feed(20, { last: null })).toEqual([])
    expect(feed(20)).toHaveLength(1)
  })

  it('is cheap for a key without rules: returns nothing', () => {
    const { feed } = setup([rule({ kind: 'above', price: 10 })])
    expect(feed(20, { key: 'fx:EURUSD' })).toEqual([])
  })
})

describe('AlertEngine repeat, cooldown, expiry', () => {
  it("fires a 'once' rule one time, then stays triggered and quiet", () => {
    const { engine, feed } = setup([rule({ kind: 'above', price: 100 })])
    expect(feed(101)).toHaveLength(1)
    expect(feed(90)).toEqual([])
    expect(feed(110)).toEqual([])
    expect(engine.states()[0]?.status).toBe('triggered')
    expect(engine.watchedKeys()).toEqual([])
  })

  it("re-arms a 'rearm' rule only after the price moves back past the hysteresis band", () => {
    // band = 1% of 100 = 1: re-arms below 99
    const { engine, feed } = setup([
      rule({ kind: 'above', price: 100 }, { repeat: 'rearm', hysteresisPct: 1 }),
    ])
    expect(feed(100.5)).toHaveLength(1)
    expect(feed(99.5)).toEqual([]) // back under the level but inside the band
    expect(feed(100.2)).toEqual([]) // still not re-armed
    expect(engine.states()[0]?.status).toBe('triggered')
    expect(feed(98.9)).toEqual([]) // past the band: re-armed
    expect(engine.states()[0]?.status).toBe('armed')
    expect(feed(100.1)).toHaveLength(1)
  })

  it("does not fire a 'crosses' rule again while the price hovers inside the hysteresis band", () => {
    // band = 1% of 100: after a fire, only a price beyond 99..101 re-arms it
    const { feed } = setup([
      rule({ kind: 'crosses', price: 100 }, { repeat: 'rearm', hysteresisPct: 1 }),
    ])
    feed(98)
    expect(feed(100.2)).toHaveLength(1)
    expect(feed(99.8)).toEqual([])
    expect(feed(100.3)).toEqual([])
    expect(feed(99.5)).toEqual([])
    expect(feed(98.5)[0]?.message).toBe('BTCUSDT crossed below 100 (98.5)')
  })

  it('re-arms dayChangePct once the change is back under the level', () => {
    const { feed } = setup([rule({ kind: 'dayChangePct', pct: 5 }, { repeat: 'rearm' })])
    expect(feed(1, { changePercent: 6 })).toHaveLength(1)
    expect(feed(1, { changePercent: 7 })).toEqual([])
    expect(feed(1, { changePercent: 4.9 })).toEqual([])
    expect(feed(1, { changePercent: 5 })).toHaveLength(1)
  })

  it('does not re-fire within cooldownSec, and fires after it if the condition still holds', () => {
    const { clock, engine, feed } = setup([
      rule({ kind: 'above', price: 100 }, { repeat: 'rearm', hysteresisPct: 0, cooldownSec: 60 }),
    ])
    expect(feed(101)).toHaveLength(1)
    clock.advance(10_000)
    feed(99) // re-armed, but cooling down
    expect(engine.states()[0]?.status).toBe('cooldown')
    expect(feed(102)).toEqual([])
    clock.advance(50_000)
    expect(feed(102)).toHaveLength(1)
  })

  it('expires a rule after expiresAt and never fires it again', () => {
    const clock0 = new FakeClock().now()
    const { clock, engine, feed } = setup([
      rule({ kind: 'above', price: 100 }, { expiresAt: clock0 + 1000 }),
    ])
    expect(feed(99)).toEqual([])
    clock.advance(1001)
    expect(engine.states()[0]?.status).toBe('expired')
    expect(feed(150)).toEqual([])
    expect(engine.watchedKeys()).toEqual([])
  })

  it('never fires a disabled rule and does not watch its symbol', () => {
    const { engine, feed } = setup([rule({ kind: 'above', price: 100 }, { enabled: false })])
    expect(feed(150)).toEqual([])
    expect(engine.states()[0]?.status).toBe('disabled')
    expect(engine.watchedKeys()).toEqual([])
  })

  it('restores persisted states: a triggered once-rule stays quiet after a restart', () => {
    const { engine, feed } = setup([rule({ kind: 'above', price: 100 })])
    feed(101)
    const saved = engine.states()
    const clock = new FakeClock()
    const restarted = new AlertEngine({ clock })
    restarted.setRules([rule({ kind: 'above', price: 100 })], saved)
    expect(restarted.evaluate(quote(120))).toEqual([])
  })

  it('fires "channel enter" when the price comes into the range, and re-arms outside it', () => {
    const { feed } = setup([
      rule(
        { kind: 'channel', low: 100, high: 110, on: 'enter' },
        { repeat: 'rearm', hysteresisPct: 1 },
      ),
    ])
    expect(feed(95)).toEqual([])
    expect(feed(100.5)[0]?.message).toBe('BTCUSDT entered 100–110 (100.5)')
    expect(feed(99.5)).toEqual([]) // inside the 1 % band under the low bound: not re-armed
    expect(feed(100.2)).toEqual([])
    expect(feed(98)).toEqual([]) // re-armed, outside
    expect(feed(111.05)).toEqual([]) // still outside (above)
    expect(feed(109)).toHaveLength(1)
  })

  it('fires "channel exit" when the price leaves the range on either side', () => {
    const { feed } = setup([
      rule(
        { kind: 'channel', low: 100, high: 110, on: 'exit' },
        { repeat: 'rearm', hysteresisPct: 0 },
      ),
    ])
    expect(feed(105)).toEqual([])
    expect(feed(111)[0]?.message).toBe('BTCUSDT left 100–110 (111)')
    expect(feed(105)).toEqual([])
    expect(feed(99)[0]?.message).toBe('BTCUSDT left 100–110 (99)')
  })

  it('uses the restored last price, so a crossing across a restart is seen', () => {
    const r = rule({ kind: 'crosses', price: 100 })
    const engine = new AlertEngine({ clock: new FakeClock() })
    engine.setRules(
      [r],
      [{ ruleId: 'r1', status: 'armed', lastFiredAt: null, lastPrice: 95, lastSeenAt: 0 }],
    )
    expect(engine.evaluate(quote(105))).toHaveLength(1)
  })
})

describe('AlertEngine gaps and history', () => {
  it('fires once, marked whileAway, for a level passed during a gap', () => {
    const { clock, engine, feed } = setup([
      rule({ kind: 'above', price: 100 }, { repeat: 'rearm' }),
    ])
    feed(95)
    const since = clock.now()
    engine.markGap(since)
    clock.jump(3 * 3_600_000)
    const fired = feed(105)
    expect(fired).toHaveLength(1)
    expect(fired[0]?.whileAway).toBe(true)
    expect(fired[0]?.awaySince).toBe(since)
    expect(fired[0]?.at).toBe(since + 3 * 3_600_000)
    expect(feed(106)).toEqual([])
  })

  it('marks only the first fresh quote after the gap as whileAway', () => {
    const { engine, feed } = setup([
      rule({ kind: 'crosses', price: 100 }, { repeat: 'rearm', hysteresisPct: 0 }),
    ])
    feed(95)
    engine.markGap(0)
    expect(feed(96, { stale: true })).toEqual([]) // stale data does not end the gap
    expect(feed(97)).toEqual([])
    expect(feed(101)[0]?.whileAway).toBe(false)
  })

  it('keeps the earlier start when a second gap begins before the first one ended', () => {
    const { engine, feed } = setup([rule({ kind: 'above', price: 100 })])
    engine.markGap((key) => (key === 'crypto:BTCUSDT' ? 1_000 : 0))
    engine.markGap(5_000)
    expect(feed(101)[0]).toMatchObject({ whileAway: true, awaySince: 1_000 })
  })

  it('never fires from the quote cache, even a cached quote not marked stale', () => {
    const { feed } = setup([rule({ kind: 'above', price: 100 })])
    expect(feed(150, { source: 'cache' })).toEqual([])
    expect(feed(150, { source: 'poll' })).toHaveLength(1)
  })

  it('keeps only the last 500 alerts in history', () => {
    const { engine, feed } = setup([
      rule({ kind: 'crosses', price: 100 }, { repeat: 'rearm', hysteresisPct: 0 }),
    ])
    feed(99)
    for (let i = 0; i < 600; i++) feed(i % 2 === 0 ? 101 : 99)
    const h = engine.history()
    expect(h).toHaveLength(500)
    expect(h.at(-1)?.id).toBe('a600')
    engine.setHistory(h.slice(0, 10))
    expect(engine.history()).toHaveLength(10)
    engine.clearHistory()
    expect(engine.history()).toEqual([])
  })

  it('lists the keys of enabled rules as watched', () => {
    const { engine } = setup([
      rule({ kind: 'above', price: 1 }),
      rule({ kind: 'above', price: 1 }, { id: 'r2', key: 'fx:EURUSD', enabled: false }),
      rule({ kind: 'below', price: 1 }, { id: 'r3', key: 'hk:00700' }),
    ])
    expect(engine.watchedKeys().sort()).toEqual(['crypto:BTCUSDT', 'hk:00700'])
  })
})

describe('MoveWindow', () => {
  it('keeps bounded memory under a flood of ticks and still sees the extreme', () => {
    const w = new MoveWindow(5 * MIN)
    for (let i = 0; i < 100_000; i++) w.add(i * 3, i === 50_000 ? 90 : 100)
    expect(w.move(300_000, 100)).toBeCloseTo(11.11, 2)
  })
})
