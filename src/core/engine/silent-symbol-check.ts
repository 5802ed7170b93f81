import { parseSymbolKey, type SymbolKey } from '../../shared/markets/market'
import { Repeater, type Clock } from '../clock'
import { isQuiet } from '../poll/session-pacing'
import { ANSWER_BOUND_MS } from '../stream/stream-market-names'

/** How often streamed symbols' ages are looked at. */
const LOOK_EVERY_MS = 1_000
const LONGEST_BOUND_MS = Math.max(...Object.values(ANSWER_BOUND_MS))
/** One REST check of a symbol at most this often: an illiquid one costs a call a minute at most. */
export const CHECK_EVERY_MS = 60_000
/**
 * A symbol riding a stream not proven yet (its market's name on trial, or its prices not yet
 * trusted) is asked over REST once its price is this old: with a look a second and a call's
 * time it is answered before 10 s, the freshness the trader is promised, though a name's trial
 * runs up to 12 s (ANSWER_BOUND_MS). Crypto's trials (4 s) never wait this long; FX's (8 s)
 * about as long, so a trial costs at most one call of its batch.
 */
export const TRIAL_FRESH_MS = 7_500

export interface SilentSymbolDeps {
  clock: Clock
  /** The streamed symbols now (an open socket's plan) of markets whose stream is proven. */
  streamed(): SymbolKey[]
  /** The streamed symbols now of markets whose stream is not proven yet (on trial). */
  onTrial?(): SymbolKey[]
  /** When the symbol's last value arrived and what it was; undefined when none yet. */
  lastOf(key: SymbolKey): { receivedAt: number; last: number | null } | undefined
  /** Ask REST for these now, within the budget (the poller's urgent queue). */
  check(keys: SymbolKey[]): void
  /** REST saw a move the stream never pushed: the symbol's slot is not feeding it. */
  missed(key: SymbolKey): void
  /** The socket's running counts: ticks read, and frames it could not read. */
  socket(): { ticksIn: number; malformed: number }
}

/**
 * No silent symbol: a streamed symbol whose price is older than its market's bound
 * (ANSWER_BOUND_MS; a market out of session is left alone) gets a REST check. The age is the
 * price's (the store moves it only with a push that carries the price), so pushes that keep
 * moving bid and ask, or a trickle of frames of other kinds, do not hide a price that stopped.
 * If REST's price differs from the last one the stream gave, the stream missed a move: the symbol
 * is handed back to polling (missed). If it is the same, the symbol is only illiquid: the next
 * check waits CHECK_EVERY_MS. So a frozen price under "Live" lasts one bound, whatever the
 * service does. Only a symbol singled out is handed back: over the symbol's silence (its bound,
 * up to the check) other symbols ticked on the socket, and what arrived unreadable meanwhile was
 * a trickle beside them (fewer than half as many frames as ticks), not a garbled socket. A
 * stalled or garbled socket missing every move is the heartbeat's and the reconnect's to mend;
 * demoting every symbol then would leave the stream empty once it speaks again
 * (test/faults/stall-recovery, network-faults).
 * A symbol on trial (onTrial) is not judged, only kept fresh: its price older than
 * TRIAL_FRESH_MS gets a REST ask, so a trial's wait never leaves a row's price past 10 s.
 */
export class SilentSymbolCheck {
  private readonly looks: Repeater
  private readonly checkedAt = new Map<SymbolKey, number>()
  /** When each symbol on trial was last asked (apart: a trial's ask is no silent check's). */
  private readonly trialAskedAt = new Map<SymbolKey, number>()
  /** Symbols with a check on its way: the streamed price, whether the socket was reading. */
  private readonly pending = new Map<
    SymbolKey,
    { last: number | null; othersTicked: boolean; ticksIn: number; malformed: number }
  >()
  /** The socket's counts at each look, oldest first, as far back as the longest bound. */
  private readonly samples: Array<{ at: number; ticksIn: number; malformed: number }> = []

  constructor(private readonly d: SilentSymbolDeps) {
    this.looks = new Repeater(d.clock, LOOK_EVERY_MS, () => this.look())
  }

  start(): void {
    this.looks.start()
  }

  stop(): void {
    this.looks.stop()
  }

  /** A polled value arrived for the symbol: compare it if a check was waiting for it. */
  answered(key: SymbolKey, last: number | null): void {
    const before = this.pending.get(key)
    if (before === undefined) return
    this.pending.delete(key)
    if (last === null || before.last === null || last === before.last) return
    if (before.othersTicked && reading(before, this.d.socket())) this.d.missed(key)
  }

  private look(): void {
    const now = this.d.clock.now()
    const due: SymbolKey[] = []
    const { ticksIn, malformed } = this.d.socket()
    this.samples.push({ at: now, ticksIn, malformed })
    while (this.samples.length > 1 && now - (this.samples[1]?.at ?? now) >= LONGEST_BOUND_MS)
      this.samples.shift()
    for (const key of this.d.streamed()) {
      const q = this.d.lastOf(key)
      const ref = parseSymbolKey(key)
      if (q === undefined || ref === null) continue
      if (now - q.receivedAt <= ANSWER_BOUND_MS[ref.market]) continue
      if (now - (this.checkedAt.get(key) ?? -Infinity) < CHECK_EVERY_MS) continue
      if (isQuiet(ref.market, ref.symbol, now)) continue
      this.checkedAt.set(key, now)
      const from = this.sampleBefore(now - ANSWER_BOUND_MS[ref.market])
      this.pending.set(key, {
        last: q.last,
        othersTicked:
          from !== undefined && ticksIn > from.ticksIn && reading(from, { ticksIn, malformed }),
        ticksIn,
        malformed,
      })
      due.push(key)
    }
    this.keepTrialsFresh(now, due)
    if (due.length > 0) this.d.check(due)
  }

  /** Symbols on trial whose price is TRIAL_FRESH_MS old: asked, at most once that often. */
  private keepTrialsFresh(now: number, due: SymbolKey[]): void {
    for (const key of this.d.onTrial?.() ?? []) {
      const q = this.d.lastOf(key)
      const ref = parseSymbolKey(key)
      if (q === undefined || ref === null || now - q.receivedAt <= TRIAL_FRESH_MS) continue
      if (now - (this.trialAskedAt.get(key) ?? -Infinity) < TRIAL_FRESH_MS) continue
      if (isQuiet(ref.market, ref.symbol, now)) continue
      this.trialAskedAt.set(key, now)
      due.push(key)
    }
  }

  /** The newest sample taken at or before `at`. */
  private sampleBefore(at: number): { ticksIn: number; malformed: number } | undefined {
    let found: { ticksIn: number; malformed: number } | undefined
    for (const s of this.samples) if (s.at <= at) found = s
    return found
  }
}

/**
 * Whether the socket was reading between two counts: some unreadable frames (a trickle of a kind
 * it does not know) are fine, as long as they are fewer than half the ticks read beside them.
 */
function reading(
  from: { ticksIn: number; malformed: number },
  to: { ticksIn: number; malformed: number },
): boolean {
  return 2 * (to.malformed - from.malformed) <= to.ticksIn - from.ticksIn
}
