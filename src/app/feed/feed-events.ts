import type { Clock } from '../../core/clock'
import type { MarketEngine } from '../../core/engine/engine'
import type { EventHub } from '../event-hub'
import { follow } from '../alerts/alert-follow'
import type { AlertLoop } from '../alerts/alert-loop'
import { MIN_GAP_MS, QuoteBatcher, realTiming, type BatchTiming } from './quote-batcher'

/** A batch of this many symbols or more holds the stream's reads until the next may go. */
export const HOLD_FROM_KEYS = 2

/**
 * Connects one engine to the app: price changes reach the renderer in batches (QuoteBatcher,
 * changed fields only) and every tick reaches the alert engine as it is read (between two
 * batches the stream is read once, when the second may go); feed and symbol statuses
 * go out as they change; the alerts follow the engine (alert-follow.ts). Returns the disconnect, which also drops a batch not yet sent.
 */
export function connectFeedEvents(
  engine: MarketEngine,
  app: {
    /** When quote batches flush (default: as soon as the event loop is free); tests step it. */
    batchTiming?: BatchTiming | undefined
    hub: EventHub
    alerts: Pick<AlertLoop, 'evaluate' | 'markGap' | 'attachBars'>
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
      const gathered = frame.keys.length
      hub.emit({ type: 'quotes', frame })
      // A batch of one symbol's change: the feed is sparse (a desk at rest, a tick every tens of
      // ms), and a hold would gather nothing but cost a pause, a timer, a resume and one more
      // look each tick. Unheld, a tick read inside the gap still waits for it (QuoteBatcher).
      if (gathered < HOLD_FROM_KEYS) return
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
    engine.onQuote(() => {
      batcher.request()
      app.quotesChanged()
    }),
    engine.onStatus((status) => {
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
    // Every quote to the alerts, gaps marked, bars attached: the glue every host shares.
    follow(engine, alerts, app.clock),
  ]
  return () => {
    connected = false
    for (const unsubscribe of unsubscribes) unsubscribe()
    batcher.stop()
  }
}
