import type { Market, SymbolKey } from '../../shared/markets/market'
import { Repeater, type Clock } from '../clock'
import type { QuoteStore } from '../quotes/quote-store'
import { isQuiet, QUIET_POLL_MS } from '../poll/session-pacing'

/** How long a polled or streamed value may go without an update before it is shown as stale. */
export const STALE_AFTER_MS = 90_000
const SWEEP_MS = 5_000

/**
 * A closed market is asked only every QUIET_POLL_MS, and its last price is its close, not a feed
 * failure: it turns stale only when the rare polls fail too. The UI says "Closed" from its session.
 */
export function staleAfterMs(market: Market, symbol: string, now: number): number {
  return isQuiet(market, symbol, now) ? QUIET_POLL_MS + STALE_AFTER_MS : STALE_AFTER_MS
}

/**
 * Values nobody refreshed for a while are shown as stale rather than silently old: a symbol the
 * service stopped sending, a poll that keeps failing. A self-rescheduling timer, never setInterval.
 */
export class StaleSweep {
  private readonly sweeps: Repeater

  constructor(
    private readonly clock: Clock,
    private readonly quotes: QuoteStore,
    private readonly afterSweep: () => void,
  ) {
    this.sweeps = new Repeater(clock, SWEEP_MS, () => this.sweep())
  }

  start(): void {
    this.sweeps.start()
  }

  stop(): void {
    this.sweeps.stop()
  }

  private sweep(): void {
    const now = this.clock.now()
    const old: SymbolKey[] = []
    // Read in place every 5 s (no copy of 5000 quotes); the session only of the old enough.
    for (const q of this.quotes.live()) {
      if (q.stale || now - q.receivedAt <= STALE_AFTER_MS) continue
      if (now - q.receivedAt > staleAfterMs(q.market, q.symbol, now)) old.push(q.key)
    }
    if (old.length) this.quotes.markStale(old)
    this.afterSweep()
  }
}
