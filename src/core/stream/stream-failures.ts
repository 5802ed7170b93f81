import WebSocket from 'ws'
import type { IncomingMessage } from 'node:http'
import type { Clock } from '../clock'
import { TickdeskError } from '../errors'
import type { Logger } from '../log'
import type { StreamCaps } from './stream-caps'
import type { HandshakeBudget } from './stream-events'
import type { RetrySchedule } from './stream-retry'
import { readUpgradeRejection } from './upgrade-rejection'

/**
 * What a StreamClient's failures lead to, the arrows into `reconnecting` and `closed` of the state
 * diagram in stream-client.ts: a handshake that never opened, a socket error or close, a non-101
 * answer to the upgrade, the key or account refused in an error frame. Each is metered and told
 * (the budget, the 'error' event), then the socket waits (stream-retry.ts) or halts.
 */

/** Why the client waits before its next handshake (RetrySchedule.arm). */
export type WaitCause = 'drop' | 'timeout' | 'connLimit' | 'forbidden' | 'rateLimited'

/** What the failure policy reads and does on its StreamClient. */
export interface FailureHost {
  clock: Clock
  log: Logger
  budget: HandshakeBudget
  caps: StreamCaps
  retry: RetrySchedule
  /** The current socket (late events of a socket let go are ignored). */
  socket(): WebSocket | null
  /** Stopped or halted on a 401: nothing reconnects. */
  halted(): boolean
  haltUnauthorized(): void
  /** Forgets the current socket and its timers; returns it. */
  detach(): WebSocket | null
  error(error: TickdeskError): void
  /** The service closed an open socket of ours, saying `reason` (a keep-alive may be wanted). */
  closedByService(reason: string): void
  backoff(cause: WaitCause, waitMs?: number | null): void
}

export class StreamFailures {
  constructor(private readonly h: FailureHost) {}

  closed(ws: WebSocket, code: number, reason: string): void {
    const h = this.h
    if (ws !== h.socket()) return
    const capUnclear = h.caps.closedWhileUnclear()
    // 1006: no close frame, the link went (ours or the network's); any other code is the service's.
    if (code !== 1006 && !capUnclear) h.closedByService(reason)
    h.detach()
    if (h.halted()) return
    // WS_CONN_LIMIT has no HTTP status (spec: Errors); a server may only say it in the close.
    if (reason.includes('WS_CONN_LIMIT') || capUnclear) {
      h.error(new TickdeskError({ code: 'WS_CONN_LIMIT', message: reason }))
      return h.backoff('connLimit')
    }
    h.log.log('info', 'stream closed', { code, reason })
    h.backoff('drop')
  }

  socketError(ws: WebSocket, err: Error): void {
    const h = this.h
    if (ws !== h.socket()) return
    if (ws.readyState === WebSocket.OPEN) {
      h.log.log('warn', 'stream socket error', { error: err.message })
      return // 'close' follows and reconnects
    }
    this.handshakeFailed(new TickdeskError({ code: 'NETWORK', message: err.message, cause: err }))
  }

  /** A handshake that never opened: meter it, say so, back off. */
  handshakeFailed(error: TickdeskError, cause: 'drop' | 'timeout' = 'drop'): void {
    const h = this.h
    h.detach()?.terminate()
    h.budget.report({ ok: false, error })
    h.error(error)
    h.backoff(cause)
  }

  /** The handshake got no answer in time (the connect timer). */
  handshakeTimedOut(): void {
    this.handshakeFailed(
      new TickdeskError({ code: 'TIMEOUT', message: 'stream handshake timed out' }),
      'timeout',
    )
  }

  /** Non-101 answer to the upgrade: 401 halts, 403 waits 15 min, 429 honours Retry-After. */
  rejected(ws: WebSocket, res: IncomingMessage): void {
    const h = this.h
    if (ws !== h.socket()) return
    h.detach()
    void readUpgradeRejection(res, () => h.clock.now()).then((error) => {
      ws.terminate()
      if (h.halted() || h.socket() !== null) return // stopped or re-keyed meanwhile
      this.refused(error)
    })
  }

  /**
   * The service refused the key or the account, on the upgrade or in an error frame on an open
   * socket: the same policy either way, and the same as REST's (the budget is the RateGovernor,
   * whose report() stops, pauses or waits for the quota). 401 halts and 403 drops the socket
   * and waits; a 429 on an open socket keeps it (pushes are not metered, spec: Limits), on the
   * upgrade waits for Retry-After.
   */
  refused(error: TickdeskError): void {
    const h = this.h
    h.budget.report({ ok: false, error })
    h.error(error)
    const open = h.socket() !== null
    if (error.status === 401) {
      // A bad key stays bad: no retries until setApiKey() (spec: Authentication 5).
      h.haltUnauthorized()
      h.retry.clear()
      h.detach()?.terminate()
      return
    }
    if (error.status === 403) {
      h.detach()?.terminate()
      return h.backoff('forbidden')
    }
    if (open) return
    if (error.status === 429) return h.backoff('rateLimited', error.retryAfterMs)
    h.backoff('drop')
  }
}
