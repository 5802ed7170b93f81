import { parseSymbolKey, type SymbolKey } from '../shared/market'
import type { Clock, TimerHandle } from './clock'
import { isQuiet } from './session-pacing'
import { ANSWER_BOUND_MS } from './stream-market-names'

/** How often streamed symbols' ages are looked at. */
const LOOK_EVERY_MS = 1_000
/** One REST check of a symbol at most this often: an illiquid one costs a call a minute at most. */
export const CHECK_EVERY_MS = 60_000

export interface SilentSymbolDeps {
  clock: Clock
  /** The streamed symbols now (an open socket's plan). */
  streamed(): SymbolKey[]
  /** When the symbol's last value arrived and what it was; undefined when none yet. */
  lastOf(key: SymbolKey): { receivedAt: number; last: number | null } | undefined
  /** Ask REST for these now, within the budget (the poller's urgent queue). */
  check(keys: SymbolKey[]): void
  /** REST saw a move the stream never pushed: the symbol's slot is not feeding it. */
  missed(key: SymbolKey): void
}

/**
 * No silent symbol (issue 36): a streamed symbol whose last value is older than its market's
 * bound (ANSWER_BOUND_MS; a market out of session is left alone) gets a REST check. If REST's
 * price differs from the last one the stream gave, the stream missed a move: the symbol is handed
 * back to polling (missed). If it is the same, the symbol is only illiquid: the next check waits
 * CHECK_EVERY_MS. So a frozen price under "Live" lasts one bound, whatever the service does.
 */
export class SilentSymbolCheck {
  private timer: TimerHandle | null = null
  private readonly checkedAt = new Map<SymbolKey, number>()
  /** Symbols with a check on its way, and the streamed price it is compared with. */
  private readonly pending = new Map<SymbolKey, number | null>()

  constructor(private readonly d: SilentSymbolDeps) {}

  start(): void {
    this.stop()
    this.timer = this.d.clock.setTimeout(() => {
      this.look()
      this.start()
    }, LOOK_EVERY_MS)
  }

  stop(): void {
    this.d.clock.clearTimeout(this.timer)
    this.timer = null
  }

  /** A polled value arrived for the symbol: compare it if a check was waiting for it. */
  answered(key: SymbolKey, last: number | null): void {
    if (!this.pending.has(key)) return
    const before = this.pending.get(key)
    this.pending.delete(key)
    if (last !== null && before !== null && before !== undefined && last !== before)
      this.d.missed(key)
  }

  private look(): void {
    const now = this.d.clock.now()
    const due: SymbolKey[] = []
    for (const key of this.d.streamed()) {
      const q = this.d.lastOf(key)
      const ref = parseSymbolKey(key)
      if (q === undefined || ref === null) continue
      if (now - q.receivedAt <= ANSWER_BOUND_MS[ref.market]) continue
      if (now - (this.checkedAt.get(key) ?? -Infinity) < CHECK_EVERY_MS) continue
      if (isQuiet(ref.market, ref.symbol, now)) continue
      this.checkedAt.set(key, now)
      this.pending.set(key, q.last)
      due.push(key)
    }
    if (due.length > 0) this.d.check(due)
  }
}
