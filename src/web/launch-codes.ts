import { randomBytes, timingSafeEqual } from 'node:crypto'
import type { Clock } from '../core/clock'

/**
 * The browser host's way in: a one-time launch code in the printed address, exchanged on the
 * first visit for a session of its own (an HttpOnly cookie the page never sees). Each code:
 *
 *   issued --first visit (exchange)--> spent: a session id is made, the code is gone
 *   issued --CODE_TTL_MS without a visit--> expired: refused, gone at the next look
 *
 * So a code copied from a screen, a terminal scroll-back or a history entry is worth nothing a
 * minute later or once the trader's browser used it, and the session cookie (a value no address
 * ever held) is what the page and the bridge are let in by. Sessions last while the host runs;
 * at most MAX_SESSIONS are kept, the oldest dropped first (each new visit with a code makes one).
 */
export const CODE_TTL_MS = 60_000
export const MAX_SESSIONS = 32
/** At most this many unspent codes wait at once (each printed address makes one). */
const MAX_CODES = 16

export function randomSecret(): string {
  return randomBytes(24).toString('base64url')
}

/** Constant-time comparison of two secrets: no timing tells how much of a guess was right. */
export function secretsEqual(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

export class LaunchCodes {
  /** Unspent codes and when each was issued. */
  private readonly codes = new Map<string, number>()
  private readonly sessions: string[] = []

  constructor(
    private readonly clock: Clock,
    private readonly secret: () => string = randomSecret,
  ) {}

  /** A fresh code, good for one visit within CODE_TTL_MS. */
  issue(): string {
    this.forgetExpired()
    while (this.codes.size >= MAX_CODES) this.codes.delete(this.codes.keys().next().value!)
    const code = this.secret()
    this.codes.set(code, this.clock.now())
    return code
  }

  /** Spends `code` for a new session id; null when it is unknown, spent or expired. */
  exchange(code: string): string | null {
    this.forgetExpired()
    const match = [...this.codes.keys()].find((known) => secretsEqual(known, code))
    if (match === undefined) return null
    this.codes.delete(match)
    const session = this.secret()
    this.sessions.push(session)
    if (this.sessions.length > MAX_SESSIONS) this.sessions.shift()
    return session
  }

  /** Whether `session` is one this host made (and has not dropped). */
  admits(session: string | null): boolean {
    return session !== null && this.sessions.some((known) => secretsEqual(known, session))
  }

  private forgetExpired(): void {
    const now = this.clock.now()
    for (const [code, issuedAt] of this.codes)
      if (now - issuedAt >= CODE_TTL_MS) this.codes.delete(code)
  }
}
