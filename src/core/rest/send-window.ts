import type { Clock } from '../clock'

/** The metering window (spec: Limits, requests per minute) plus the arrival slack (rate-governor.ts). */
export const WINDOW_MS = 61_000
/** Two per-minute 429s under the ceiling this close together teach the key's RPM (learnRate). */
const RATE_HINT_MS = 5 * 60_000

/**
 * The governor's pacing: the sends of the last WINDOW_MS against a ceiling of floor(rpm x
 * utilisation), and the key's own RPM when its per-minute 429s show it lower than the plan's.
 * It knows nothing of the governor's states: only when the next send fits.
 * Tests: rate-governor.spec.ts (through the governor, which is its only user).
 */
export class SendWindow {
  private sent: number[] = []
  private rpm = 1
  private ceiling = 1
  /** The key's RPM as learned from per-minute 429s (learnRate); null until they taught it. */
  private learned: number | null = null
  /** The last per-minute 429 under the ceiling: when, and how many the service had let through. */
  private rateHint: { at: number; allowed: number } | null = null

  constructor(
    private readonly clock: Clock,
    private readonly utilisation: number,
    rpm: number,
  ) {
    this.setRpm(rpm)
  }

  /** The governed ceiling (rpm x utilisation), not the plan's nominal RPM. */
  get limit(): number {
    return this.ceiling
  }

  get learnedRpm(): number | null {
    return this.learned
  }

  setRpm(rpm: number): void {
    const safe = Number.isFinite(rpm) && rpm > 0 ? rpm : 1
    this.rpm = this.learned === null ? safe : Math.min(safe, this.learned)
    this.ceiling = Math.max(1, Math.floor(this.rpm * this.utilisation))
  }

  record(at: number): void {
    this.sent.push(at)
  }

  /** Sends within the window now. */
  used(): number {
    this.prune()
    return this.sent.length
  }

  /** ms until the window has room for one more send (0 = now). */
  delay(): number {
    this.prune()
    if (this.sent.length < this.ceiling) return 0
    const oldest = this.sent[this.sent.length - this.ceiling] ?? this.clock.now()
    return Math.max(1, oldest + WINDOW_MS - this.clock.now())
  }

  /**
   * A per-minute 429 although this budget's window held no more than its ceiling: the service
   * may count fewer per minute for this key than the plan says. It let through at most the sends
   * in the window less the one refused. One such 429 is a hint (another app on the account, a
   * passing hiccup); a second within RATE_HINT_MS makes it the key's RPM, the larger of the two
   * counts, for the rest of the session (never raised again: a wrong guess downwards costs some
   * freshness, upwards a 429 a minute).
   */
  learnRate(): void {
    this.prune()
    const now = this.clock.now()
    const sent = this.sent.length
    if (sent > this.ceiling || sent < 2) return
    const allowed = sent - 1
    // A key that lets through fewer than a quarter of the plan's RPM is a storm, not a limit: a
    // 429 storm at start-up taught "2 a minute" for the whole session. Backoff rides a storm out.
    if (allowed < Math.ceil(this.ceiling / 4)) return
    const hint = this.rateHint
    this.rateHint = { at: now, allowed }
    if (hint === null || now - hint.at > RATE_HINT_MS) return
    const learned = Math.max(allowed, hint.allowed)
    if (learned >= this.rpm) return
    this.learned = learned
    this.setRpm(this.rpm)
  }

  private prune(): void {
    const from = this.clock.now() - WINDOW_MS
    let drop = 0
    while (drop < this.sent.length && (this.sent[drop] ?? 0) <= from) drop += 1
    if (drop > 0) this.sent = this.sent.slice(drop)
  }
}
