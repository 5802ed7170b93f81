import type { Market } from '../../shared/markets/market'
import type { Clock, TimerHandle } from '../clock'
import type { TickdeskError } from '../errors'
import type { ErrorFrameAction } from './stream-error-frame'
import type { StreamSymbolCap } from './stream-events'
import { GHOST_GRACE_MS, type ResyncSchedule } from './stream-resync'
import type { SubscriptionBook } from './subscription-book'

/** After a WS_CONN_LIMIT that names no cap: a service closing the socket this soon means connections. */
export const CAP_GRACE_MS = 1_500

export interface CapActions {
  /** The service's symbol cap is lower than what we asked for: the engine streams fewer. */
  symbolCap(cap: StreamSymbolCap): void
  /** Over the connection cap: drop the socket and wait (stream-retry connLimit). */
  connectionCap(error: TickdeskError): void
}

type CapAction = Extract<
  ErrorFrameAction,
  { kind: 'symbol-cap' | 'cap-unclear' | 'connection-cap' }
>

/**
 * The stream's two caps (spec: Limits, connections and symbols per plan, "approximate") as one
 * socket meets them. The symbol cap keeps the socket: with or without the refused symbols listed,
 * the engine learns to stream fewer, unless the service is holding symbols we left (unsubscribe
 * ignored: stream-resync.ts), which only a resync fixes. Right after an unsubscribe that cannot be
 * told yet, so the verdict waits until pushes for the left symbols would have stopped. A WS_CONN_LIMIT
 * that says neither is read by what the service does next: closing the socket within
 * CAP_GRACE_MS makes it the connection cap, keeping it open the symbol cap.
 */
export class StreamCaps {
  private timer: TimerHandle | null = null
  private verdict: TimerHandle | null = null

  constructor(
    private readonly clock: Clock,
    private readonly book: SubscriptionBook,
    private readonly resync: ResyncSchedule,
    private readonly actions: CapActions,
  ) {}

  onFrame(action: CapAction, market: Market | null, stillOpen: () => boolean): void {
    switch (action.kind) {
      case 'connection-cap':
        return this.actions.connectionCap(action.error)
      case 'symbol-cap':
        return this.symbolCap({ market, symbols: action.symbols, message: action.message })
      case 'cap-unclear':
        this.clear()
        this.timer = this.clock.setTimeout(() => {
          this.timer = null
          if (stillOpen())
            this.symbolCap({ market: null, symbols: [], message: action.error.message })
        }, CAP_GRACE_MS)
    }
  }

  /** The socket closed: true when an unclear WS_CONN_LIMIT was pending (the connection cap). */
  closedWhileUnclear(): boolean {
    const pending = this.timer !== null
    this.clear()
    return pending
  }

  clear(): void {
    this.clock.clearTimeout(this.timer)
    this.clock.clearTimeout(this.verdict)
    this.timer = this.verdict = null
  }

  private symbolCap(cap: StreamSymbolCap): void {
    const left = this.book.lastLeftAt()
    if (this.verdict !== null || (left !== null && this.resync.holdsLeftSymbols(left))) return
    const wait = left === null ? 0 : left + GHOST_GRACE_MS + 1 - this.clock.now()
    if (wait <= 0) return this.actions.symbolCap(cap)
    this.verdict = this.clock.setTimeout(() => {
      this.verdict = null
      if (!this.resync.holdsLeftSymbols(left ?? 0)) this.actions.symbolCap(cap)
    }, wait)
  }
}
