import type { RuleMemo } from '../../core/alerts/alert-engine'
import type { Clock } from '../../core/clock'
import type { Quote } from '../../shared/quote'
import type { FeedStatus } from '../../shared/status'
import type { BarNeed } from '../../core/bars/bar-backfill'
import type { SymbolKey } from '../../shared/markets/market'
import type { Bar, Interval } from '../../shared/quote'

/** Where moving-average rules read bars, and ask once for the history they lack (the engine). */
export interface AlertBars {
  candles: { bars(key: SymbolKey, interval: Interval, limit: number): Bar[] }
  backfillBars(needs: readonly BarNeed[]): void
}

/** What of the alert loop the engine feeds. */
export interface FollowingLoop {
  evaluate(quote: Quote, memo?: RuleMemo): void
  markGap(since: number): void
  attachBars(market: AlertBars | null): void
}

/** What of a market engine the alerts follow (MarketEngine has it all). */
export interface FollowedEngine extends AlertBars {
  onQuote(listener: (q: Quote, memo: RuleMemo) => void): () => void
  onStatus(listener: (s: FeedStatus) => void): () => void
  onResume(listener: (gapMs: number) => void): () => void
}

/**
 * The engine-to-alert glue, once for every host (the app's feed events, `watch`, `alerts run`):
 * every quote is evaluated (only a fresh one can fire), going offline or stopping and waking
 * from a sleep are gaps ("while you were away"), and moving-average rules read the engine's bars.
 * Returns the unfollow, which also detaches the bars.
 */
export function follow(
  engine: FollowedEngine,
  loop: FollowingLoop,
  clock: Clock,
  opts: {
    /**
     * Whether a status is one the feed was in: a CLI engine reports a placeholder "stopped"
     * before start() and after stop(), which is not a gap.
     */
    statusCounts?: () => boolean
  } = {},
): () => void {
  loop.attachBars(engine)
  const unsubscribes = [
    engine.onQuote((q, memo) => loop.evaluate(q, memo)),
    engine.onStatus((s) => {
      if (opts.statusCounts?.() === false) return
      if (s.state === 'offline' || s.state === 'stopped') loop.markGap(clock.now())
    }),
    engine.onResume((gapMs) => loop.markGap(clock.now() - gapMs)),
  ]
  return () => {
    for (const unsubscribe of unsubscribes) unsubscribe()
    loop.attachBars(null)
  }
}
