import { describe, expect, it } from 'vitest'
import { FakeClock } from '../core/clock'
import { CODE_TTL_MS, LaunchCodes, MAX_SESSIONS, randomSecret, secretsEqual } from './launch-codes'

/** Codes and sessions numbered in order, so a test can name them. */
function counted(): () => string {
  let n = 0
  return () => `secret-${String(++n).padStart(4, '0')}`
}

describe('launch codes and sessions', () => {
  it('trades a code once for a session of another value', () => {
    const codes = new LaunchCodes(new FakeClock(0), counted())
    const code = codes.issue()
    const session = codes.exchange(code)
    expect(session).not.toBeNull()
    expect(session).not.toBe(code)
    expect(codes.admits(session)).toBe(true)
    expect(codes.exchange(code)).toBeNull()
    expect(codes.admits(code)).toBe(false)
    expect(codes.admits(null)).toBe(false)
    expect(codes.admits('secret-9999')).toBe(false)
  })

  it('lets an unused code expire after a minute, to the millisecond', () => {
    const clock = new FakeClock(0)
    const codes = new LaunchCodes(clock, counted())
    const a = codes.issue()
    const b = codes.issue()
    clock.advance(CODE_TTL_MS - 1)
    expect(codes.exchange(a)).not.toBeNull()
    clock.advance(1)
    expect(codes.exchange(b)).toBeNull()
    expect(CODE_TTL_MS).toBeLessThanOrEqual(60_000)
  })

  it('refuses a code that is only part of, or longer than, one it issued', () => {
    const codes = new LaunchCodes(new FakeClock(0), counted())
    const code = codes.issue()
    expect(codes.exchange(code.slice(0, -1))).toBeNull()
    expect(codes.exchange(`${code}0`)).toBeNull()
    expect(codes.exchange('')).toBeNull()
    expect(codes.exchange(code)).not.toBeNull()
  })

  it('keeps at most 16 unspent codes (the oldest go first) and at most MAX_SESSIONS sessions', () => {
    const codes = new LaunchCodes(new FakeClock(0), counted())
    const issued = Array.from({ length: 17 }, () => codes.issue())
    expect(codes.exchange(issued[0]!)).toBeNull()
    expect(codes.exchange(issued[1]!)).not.toBeNull()
    const sessions: string[] = []
    for (let i = 0; i < MAX_SESSIONS + 1; i++) sessions.push(codes.exchange(codes.issue())!)
    expect(codes.admits(sessions[0]!)).toBe(false)
    expect(codes.admits(sessions[1]!)).toBe(true)
    expect(codes.admits(sessions.at(-1)!)).toBe(true)
  })

  it('makes secrets a guess cannot reach, compared in constant time', () => {
    const a = randomSecret()
    expect(a).toMatch(/^[\w-]{32}$/)
    expect(randomSecret()).not.toBe(a)
    expect(secretsEqual(a, a)).toBe(true)
    expect(secretsEqual(a, `${a}x`)).toBe(false)
    expect(
      secretsEqual(
        a,
        a.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')),
      ),
    ).toBe(false)
  })
})
