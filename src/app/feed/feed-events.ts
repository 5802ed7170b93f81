import type { Clock } from '../../core/clock'
import type { MarketEngine } from '../../core/engine/engine'
import type { EventHub } from '../event-hub'
import { follow } from '../alerts/alert-follow'
import type { AlertLoop } from '../alerts/alert-loop'
import type { FrameBeat } from './frame-beat'
import { QuoteBatcher, realTiming, type BatchTiming } from './quote-batcher'

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
    /** The page's frames, as it reports them: batches leave just before one (frame-beat.ts). */
    frameBeat?: FrameBeat | undefined
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
  let gathered = 0
  const batcher = new QuoteBatcher(
    timing,
    () => engine.quotes.drainFrame(),
    (frame) => {
      gathered = frame.keys.length
      hub.emit({ type: 'quotes', frame })
    },
    app.frameBeat ?? null,
    // After a batch of one symbol's change the feed is sparse (a desk at rest, a tick every tens
    // of ms): a hold would gather nothing but cost a pause, a timer, a resume and one more look
    // each tick. After a fuller one the socket is left unread while the next batch waits: one
    // wake-up a batch, not one a socket frame (stream-read-hold.ts).
    () => (gathered >= HOLD_FROM_KEYS && connected ? engine.holdStreamReads() : null),
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
