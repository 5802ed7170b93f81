import type { SymbolKey } from '../shared/market'
import type { Clock, TimerHandle } from './clock'
import type { QuoteStore } from './quote-store'

/** How long a polled or streamed value may go without an update before it is shown as stale. */
export const STALE_AFTER_MS = 90_000
const SWEEP_MS = 5_000

/**
 * Values nobody refreshed for a while are shown as stale rather than silently old: a symbol the
 * service stopped sending, a poll that keeps failing. A self-rescheduling timer, never setInterval.
 */
export class StaleSweep {
  private timer: TimerHandle | null = null

  constructor(
    private readonly clock: Clock,
    private readonly quotes: QuoteStore,
    private readonly afterSweep: () => void,
  ) {}

  start(): void {
    this.stop()
    this.timer = this.clock.setTimeout(() => {
      const now = this.clock.now()
      const old: SymbolKey[] = []
      for (const q of this.quotes.all()) {
        if (!q.stale && now - q.receivedAt > STALE_AFTER_MS) old.push(q.key)
      }
      if (old.length) this.quotes.markStale(old)
      this.afterSweep()
      this.start()
    }, SWEEP_MS)
  }

  stop(): void {
    this.clock.clearTimeout(this.timer)
    this.timer = null
  }
}
