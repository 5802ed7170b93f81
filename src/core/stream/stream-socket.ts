import WebSocket from 'ws'
import type { Clock, TimerHandle } from '../clock'

/** The longest a handshake is left waiting for an answer. */
const MAX_HANDSHAKE_WAIT_MS = 60_000

/**
 * How long a handshake waits for an answer. A service that holds handshakes (stalled) answers
 * the one still waiting the moment it recovers; each timeout in a row waits twice as long (15,
 * 30, 60 s), so a long stall costs about one handshake a minute, not one every few seconds,
 * while REST keeps prices coming. An answered handshake starts the ladder over.
 */
export class HandshakeTimer {
  /** Handshakes in a row that got no answer at all (a stalled service or a black-holed link). */
  private timeouts = 0
  private timer: TimerHandle | null = null

  constructor(
    private readonly clock: Clock,
    private readonly baseMs: number,
  ) {}

  /** Calls `timedOut` when the wait runs out and `stillWaiting()` says the socket got no answer. */
  arm(stillWaiting: () => boolean, timedOut: () => void): void {
    this.clear()
    const timeoutMs = Math.min(this.baseMs * 2 ** this.timeouts, MAX_HANDSHAKE_WAIT_MS)
    this.timer = this.clock.setTimeout(() => {
      this.timer = null
      if (!stillWaiting()) return
      this.timeouts++
      timedOut()
    }, timeoutMs)
  }

  answered(): void {
    this.clear()
    this.timeouts = 0
  }

  clear(): void {
    this.clock.clearTimeout(this.timer)
    this.timer = null
  }
}

/**
 * A clean close (1000), ended by a terminate when the service does not answer within `ms`: ws
 * itself waits 30 s for the closing handshake, and a stop must not hang on a peer that stopped
 * reading (a `watch --duration` that did not exit for it).
 */
export function closeWithin(ws: WebSocket, ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(() => ws.terminate(), ms)
    timer.unref?.()
    ws.once('close', () => {
      clearTimeout(timer)
      resolve()
    })
    if (ws.readyState === WebSocket.CONNECTING) ws.terminate()
    else ws.close(1000, 'client stop')
  })
}
