import type { Clock } from '../core/clock'
import type { MarketEngine } from '../core/engine'
import type { EventHub } from './event-hub'
import type { AlertLoop } from './alert-loop'
import { MIN_GAP_MS, QuoteBatcher, realTiming, type BatchTiming } from './quote-batcher'

/**
 * Connects one engine to the app: price changes reach the renderer in batches (QuoteBatcher,
 * changed fields only) and every tick reaches the alert engine as it is read (between two
 * batches the stream is read once, when the second may go); feed and symbol statuses
 * go out as they change; going offline or waking from sleep is a gap for the alerts ("while you
 * were away"). Returns the disconnect, which also drops a batch not yet sent.
 */
export function connectFeedEvents(
  engine: MarketEngine,
  app: {
    /** When quote batches flush (default: as soon as the event loop is free); tests step it. */
    batchTiming?: BatchTiming | undefined
    hub: EventHub
    alerts: Pick<AlertLoop, 'evaluate' | 'markGap'>
    clock: Clock
    quotesChanged: () => void
  },
): () => void {
  const { hub, alerts } = app
  let statusesQueued = false
  let connected = true
  const timing = app.batchTiming ?? realTiming
  const batcher = new QuoteBatcher(
    timing,
    () => engine.quotes.drainFrame(),
    (frame) => {
      hub.emit({ type: 'quotes', frame })
      // Nothing read before the next batch may go could reach the screen sooner: the stream's
      // socket is left unread until then and read in one go (stream-read-hold.ts), and what it
      // brings goes out in the same turn of the loop: one wake-up a batch, not one a frame.
      const release = engine.holdStreamReads()
      timing.after(MIN_GAP_MS, () => {
        release()
        if (connected) timing.schedule(() => batcher.flush())
      })
    },
  )
  const unsubscribes = [
    engine.onQuote((q) => {
      batcher.request()
      alerts.evaluate(q)
      app.quotesChanged()
    }),
    engine.onStatus((status) => {
      if (status.state === 'offline' || status.state === 'stopped') alerts.markGap(app.clock.now())
      batcher.request()
      hub.emit({ type: 'status', status })
    }),
    // One event carries every symbol's status: a replan that changes thousands of them (a
    // 5000-symbol list coming into view) sends it once, not once per symbol (5000 x 5000).
    engine.onSymbolStatus(() => {
      if (statusesQueued) return
      statusesQueued = true
      queueMicrotask(() => {
        statusesQueued = false
        if (connected) hub.emit({ type: 'symbolStatuses', statuses: engine.symbolStatuses() })
      })
    }),
    engine.onResume((gapMs) => alerts.markGap(app.clock.now() - gapMs)),
  ]
  return () => {
    connected = false
    for (const unsubscribe of unsubscribes) unsubscribe()
    batcher.stop()
  }
}
