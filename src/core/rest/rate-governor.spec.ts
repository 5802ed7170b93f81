import { describe, expect, it } from 'vitest'
import { FakeClock } from '../clock'
import { TickdeskError } from '../errors'
import { fullJitterDelay, seededRandom } from '../random'
import { RateGovernor } from './rate-governor'

function governor(rpm = 30, seed = 7): { g: RateGovernor; clock: FakeClock } {
  const clock = new FakeClock()
  return { g: new RateGovernor({ rpm, clock, random: seededRandom(seed) }), clock }
}

function err(
  status: number | null,
  code: string,
  retryAfterMs: number | null = null,
): TickdeskError {
  return new TickdeskError({ status, code, message: code, retryAfterMs })
}

describe('RateGovernor budget', () => {
  it('holds a Free plan under 27 requests in any sliding minute', () => {
    const { g, clock } = governor(30)
    const sent: number[] = []
    for (let t = 0; t < 5 * 60_000; t += 100) {
      while (g.tryAcquire(t % 3 === 0 ? 'handshake' : 'rest')) sent.push(clock.now())
      clock.advance(100)
    }
    for (const start of sent) {
      // 61 s: a request that reaches the service a second late still lands outside the minute.
      const inWindow = sent.filter((s) => s >= start && s < start + 61_000).length
      expect(inWindow).toBeLessThanOrEqual(27)
    }
    // and it does use the budget: 27 per minute over five minutes
    expect(sent.length).toBeGreaterThanOrEqual(27 * 5)
    expect(g.snapshot().perMinute).toBe(27)
  })

  it('shares one budget between REST calls and stream handshakes', () => {
    const { g } = governor(10)
    for (let i = 0; i < 9; i++) expect(g.tryAcquire(i % 2 ? 'rest' : 'handshake')).toBe(true)
    expect(g.tryAcquire('handshake')).toBe(false)
    expect(g.tryAcquire('rest')).toBe(false)
    expect(g.delayFor('rest')).toBeGreaterThan(0)
    expect(g.snapshot().usedLastMinute).toBe(9)
  })

  it('lets polls spend the whole budget but gives the next free slot to a waiting handshake or candle call', async () => {
    const { g, clock } = governor(10) // ceiling 9 per minute
    for (let i = 0; i < 9; i++) {
      expect(g.tryAcquire('poll')).toBe(true)
      clock.advance(1_000)
    }
    // The stream wants to reconnect: refused for now, and from now on it is owed the next slot.
    expect(g.tryAcquire('handshake')).toBe(false)
    const freeAt = g.delayFor('handshake')
    clock.advance(freeAt)
    expect(g.tryAcquire('poll')).toBe(false)
    expect(g.tryAcquire('handshake')).toBe(true)
    // A candle request waiting in acquire() wins the next slot over the poller too.
    let candles = false
    const waiting = g.acquire('rest').then(() => (candles = true))
    await Promise.resolve()
    // The slot frees; the poller asks before the candle call's timer has run.
    clock.jump(g.delayFor('rest'))
    expect(g.tryAcquire('poll')).toBe(false)
    clock.advance(0)
    await waiting
    expect(candles).toBe(true)
    // Nobody else waiting: polls use the slots again.
    clock.advance(g.delayFor('poll'))
    expect(g.tryAcquire('poll')).toBe(true)
  })

  it('follows an rpm override', () => {
    const { g } = governor(30)
    g.setRpm(600)
    expect(g.snapshot().perMinute).toBe(540)
  })

  it('waits on the clock for a slot in acquire() and rejects when the signal aborts', async () => {
    const { g, clock } = governor(2) // ceiling 1 per minute
    await g.acquire('rest')
    let got = false
    const waiting = g.acquire('rest').then(() => (got = true))
    await Promise.resolve()
    expect(got).toBe(false)
    clock.advance(61_000)
    await waiting
    expect(got).toBe(true)
    const controller = new AbortController()
    const aborted = g.acquire('rest', controller.signal)
    controller.abort()
    await expect(aborted).rejects.toMatchObject({ code: 'ABORTED' })
  })

  it('counts calls today and starts again at UTC midnight', () => {
    const { g, clock } = governor(3000)
    for (let i = 0; i < 5; i++) g.tryAcquire('rest')
    expect(g.snapshot().callsToday).toBe(5)
    clock.advance(24 * 3_600_000)
    expect(g.snapshot().callsToday).toBe(0)
  })
})

describe('RateGovernor policy', () => {
  it('pauses all REST calls and handshakes for Retry-After seconds after a 429', () => {
    const { g, clock } = governor(600)
    g.report({ ok: false, error: err(429, 'RATE_LIMIT_EXCEEDED', 30_000) })
    expect(g.snapshot()).toMatchObject({
      state: 'paused',
      code: 'RATE_LIMIT_EXCEEDED',
      retryAt: clock.now() + 30_000,
    })
    expect(g.delayFor('rest')).toBe(30_000)
    expect(g.delayFor('handshake')).toBe(30_000)
    expect(g.tryAcquire('rest')).toBe(false)
    clock.advance(29_999)
    expect(g.tryAcquire('handshake')).toBe(false)
    clock.advance(1)
    expect(g.snapshot().state).toBe('open')
    expect(g.tryAcquire('rest')).toBe(true)
  })

  it('backs off with full jitter without Retry-After, growing per attempt and resetting on success', () => {
    const { g, clock } = governor(600, 42)
    const expected = seededRandom(42)
    for (let attempt = 0; attempt < 4; attempt++) {
      const before = clock.now()
      g.report({ ok: false, error: err(429, 'KEY_RATE_LIMIT_EXCEEDED') })
      const wait = (g.snapshot().retryAt ?? 0) - before
      expect(wait).toBe(fullJitterDelay(attempt, 1000, 60_000, expected))
      expect(wait).toBeLessThan(1000 * 2 ** attempt)
      clock.advance(wait)
    }
    g.report({ ok: true })
    const before = clock.now()
    g.report({ ok: false, error: err(503, 'RATE_LIMIT_UNAVAILABLE') })
    expect((g.snapshot().retryAt ?? 0) - before).toBeLessThan(1000)
  })

  it('backs off REST only on 5xx and network errors, keeping handshakes allowed', () => {
    const { g } = governor(600)
    g.report({ ok: false, error: err(null, 'NETWORK') })
    g.report({ ok: false, error: err(502, 'UPSTREAM_UNAVAILABLE') })
    expect(g.snapshot().state).toBe('backoff')
    expect(g.delayFor('handshake')).toBe(0)
    for (let i = 0; i < 10; i++) g.report({ ok: false, error: err(502, 'UPSTREAM_UNAVAILABLE') })
    expect(g.delayFor('rest')).toBeLessThanOrEqual(60_000)
  })

  it('never shortens a running 429 pause because a 5xx arrives', () => {
    const { g, clock } = governor(600)
    g.report({ ok: false, error: err(429, 'RATE_LIMIT_EXCEEDED', 120_000) })
    g.report({ ok: false, error: err(502, 'UPSTREAM_UNAVAILABLE') })
    g.report({ ok: true })
    expect(g.snapshot()).toMatchObject({ state: 'paused', retryAt: clock.now() + 120_000 })
  })

  it('stops all traffic after a 401 until the key changes', async () => {
    const { g, clock } = governor(600)
    g.report({ ok: false, error: err(401, 'WHATEVER_THE_BODY_SAID') })
    expect(g.snapshot()).toMatchObject({ state: 'stopped', code: 'UNAUTHORIZED', retryAt: null })
    expect(g.delayFor('rest')).toBe(Infinity)
    expect(g.delayFor('handshake')).toBe(Infinity)
    clock.advance(24 * 3_600_000)
    expect(g.tryAcquire('handshake')).toBe(false)
    await expect(g.acquire('rest')).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
    g.resetAuth()
    expect(g.snapshot().state).toBe('open')
    expect(g.tryAcquire('rest')).toBe(true)
  })

  it('stops everything on SUBSCRIPTION_EXPIRED and rechecks no sooner than 15 minutes', () => {
    const { g, clock } = governor(600)
    g.report({ ok: false, error: err(403, 'SUBSCRIPTION_EXPIRED') })
    expect(g.snapshot()).toMatchObject({ state: 'stopped', code: 'SUBSCRIPTION_EXPIRED' })
    expect(g.snapshot().message).toContain('SUBSCRIPTION_EXPIRED')
    clock.advance(15 * 60_000 - 1)
    expect(g.tryAcquire('rest')).toBe(false)
    expect(g.tryAcquire('handshake')).toBe(false)
    clock.advance(1)
    expect(g.tryAcquire('rest')).toBe(true)
  })

  it('keeps the account open on MARKET_NOT_ENABLED and UNKNOWN_SYMBOL (per-market, per-symbol)', () => {
    const { g } = governor(600)
    g.report({ ok: false, error: err(403, 'MARKET_NOT_ENABLED') })
    g.report({ ok: false, error: err(400, 'UNKNOWN_SYMBOL') })
    expect(g.snapshot().state).toBe('open')
    expect(g.delayFor('rest')).toBe(0)
  })

  it('stops REST and handshakes until the next UTC midnight on DAILY_LIMIT_EXCEEDED without Retry-After', async () => {
    const { g, clock } = governor(600)
    g.report({ ok: false, error: err(429, 'DAILY_LIMIT_EXCEEDED') })
    const midnight = Date.UTC(2026, 0, 6)
    expect(g.snapshot()).toMatchObject({
      state: 'quota',
      code: 'DAILY_LIMIT_EXCEEDED',
      retryAt: midnight,
    })
    expect(g.snapshot().message).toContain('2026-01-06T00:00:00.000Z')
    expect(g.snapshot().message).toMatch(/open stream keeps running/)
    expect(g.delayFor('rest')).toBe(midnight - clock.now())
    expect(g.delayFor('handshake')).toBe(midnight - clock.now())
    expect(g.tryAcquire('handshake')).toBe(false)
    await expect(g.acquire('rest')).rejects.toMatchObject({ code: 'DAILY_LIMIT_EXCEEDED' })
    clock.advance(midnight - clock.now())
    expect(g.tryAcquire('rest')).toBe(true)
    expect(g.tryAcquire('handshake')).toBe(true)
  })

  it("starts calls today again when the service's day begins by its Retry-After, not only at UTC midnight", () => {
    const { g, clock } = governor(3000)
    for (let i = 0; i < 5; i++) g.tryAcquire('rest')
    g.report({ ok: false, error: err(429, 'DAILY_LIMIT_EXCEEDED', 90_000) })
    clock.advance(89_000)
    expect(g.snapshot().callsToday).toBe(5)
    clock.advance(1_000)
    expect(g.snapshot()).toMatchObject({ state: 'open', callsToday: 0 })
    expect(g.tryAcquire('rest')).toBe(true)
    expect(g.snapshot().callsToday).toBe(1)
    // A rate-limit pause ending is not a new day.
    g.report({ ok: false, error: err(429, 'RATE_LIMIT_EXCEEDED', 1_000) })
    clock.advance(1_000)
    expect(g.snapshot()).toMatchObject({ state: 'open', callsToday: 1 })
  })

  it('stops REST until the first of next month UTC on MONTHLY_LIMIT_EXCEEDED, or Retry-After when given', () => {
    const { g, clock } = governor(600)
    g.report({ ok: false, error: err(429, 'MONTHLY_LIMIT_EXCEEDED') })
    expect(g.snapshot().retryAt).toBe(Date.UTC(2026, 1, 1))
    const other = governor(600)
    other.g.report({ ok: false, error: err(429, 'DAILY_LIMIT_EXCEEDED', 90_000) })
    expect(other.g.snapshot().retryAt).toBe(other.clock.now() + 90_000)
    expect(clock.now()).toBe(other.clock.now())
  })

  it('tells listeners about every state change', () => {
    const { g, clock } = governor(600)
    const states: string[] = []
    g.onChange((s) => states.push(s.state))
    g.report({ ok: false, error: err(429, 'RATE_LIMIT_EXCEEDED', 1000) })
    clock.advance(1000)
    expect(states).toEqual(['paused', 'open'])
  })
})

describe('RateGovernor: a per-key RPM below the plan’s', () => {
  /** Sends at the governor's own pace until the service (at `keyRpm` a minute) refuses one. */
  function runUntil429(g: RateGovernor, clock: FakeClock, keyRpm: number): void {
    const admitted: number[] = []
    for (let i = 0; i < 200; i++) {
      const wait = g.delayFor('poll')
      if (wait > 0) clock.advance(wait === Infinity ? 61_000 : wait)
      if (!g.tryAcquire('poll')) continue
      const now = clock.now()
      while (admitted.length > 0 && (admitted[0] as number) <= now - 60_000) admitted.shift()
      if (admitted.length >= keyRpm) {
        g.report({ ok: false, error: err(429, 'KEY_RATE_LIMIT_EXCEEDED', 5_000) })
        return
      }
      admitted.push(now)
      g.report({ ok: true })
    }
    throw new Error('no 429 came')
  }

  it('learns the key’s RPM from two 429s under its ceiling and keeps under 90 % of it', () => {
    const { g, clock } = governor(30)
    expect(g.snapshot().perMinute).toBe(27)
    runUntil429(g, clock, 20)
    expect(g.snapshot().learnedRpm).toBeUndefined()
    clock.advance(5_000)
    runUntil429(g, clock, 20)
    expect(g.snapshot()).toMatchObject({ learnedRpm: 20, perMinute: 18 })
  })

  it('learns nothing from a storm: two 429s with only a couple of requests through', () => {
    const { g, clock } = governor(30)
    for (let i = 0; i < 2; i++) {
      runUntil429(g, clock, 2)
      clock.advance(5_000)
    }
    expect(g.snapshot().learnedRpm).toBeUndefined()
    expect(g.snapshot().perMinute).toBe(27)
  })

  it('learns nothing from a 429 while its own window was over the ceiling, or from one alone', () => {
    const { g, clock } = governor(30)
    g.tryAcquire('rest')
    g.report({ ok: false, error: err(429, 'KEY_RATE_LIMIT_EXCEEDED', 1_000) })
    clock.advance(1_000)
    g.tryAcquire('rest')
    g.report({ ok: false, error: err(429, 'RATE_LIMIT_EXCEEDED', 1_000) })
    expect(g.snapshot()).toMatchObject({ perMinute: 27 })
    expect(g.snapshot().learnedRpm).toBeUndefined()
  })
})
