import WebSocket from 'ws'
import type { Clock, TimerHandle } from '../clock'
import type { Logger } from '../log'
import type { RetrySchedule } from './stream-retry'

/**
 * After a system resume the socket is usually dead while its own timers think little time
 * passed (sleep-detector.ts): StreamClient.checkHealth proves it alive now or replaces it. An
 * open socket is pinged and replaced when nothing at all is heard within `timeoutMs`; a
 * handshake older than its own timeout is abandoned; a wait for the next handshake is cut
 * short when it is ordinary backoff, kept but re-armed against the wall clock when it is a
 * policy wait (403, 429, WS_CONN_LIMIT, the budget): timers may be far off after a clock jump.
 */
export interface HealthHost {
  clock: Clock
  log: Logger
  timeoutMs: number
  connectTimeoutMs: number
  socket(): WebSocket | null
  connectStartedAt(): number
  ping(): void
  retry: RetrySchedule
  /** Drop the socket (if any) and connect afresh now. */
  replace(): void
}

export class StreamHealth {
  private timer: TimerHandle | null = null
  /** Bumped by anything received: a health ping is answered when it moves (the clock may not). */
  private count = 0

  constructor(private readonly h: HealthHost) {}

  heard(): void {
    this.count++
  }

  check(): void {
    const h = this.h
    const now = h.clock.now()
    const ws = h.socket()
    if (ws !== null && ws.readyState === WebSocket.OPEN) return this.pingAndWait(ws)
    if (ws !== null) {
      if (now - h.connectStartedAt() >= h.connectTimeoutMs) h.replace()
      return
    }
    if (h.retry.at === null) return
    if (h.retry.cutShortable || h.retry.at <= now) h.replace()
    else h.retry.rearm(now)
  }

  clear(): void {
    this.h.clock.clearTimeout(this.timer)
    this.timer = null
  }

  private pingAndWait(ws: WebSocket): void {
    const h = this.h
    const heardBefore = this.count
    h.ping()
    this.clear()
    this.timer = h.clock.setTimeout(() => {
      this.timer = null
      if (ws !== h.socket() || this.count !== heardBefore) return
      h.log.log('warn', 'stream: no answer to health ping, reconnecting')
      h.replace()
    }, h.timeoutMs)
  }
}
