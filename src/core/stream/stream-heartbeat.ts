import WebSocket from 'ws'
import type { Clock, TimerHandle } from '../clock'
import type { Logger } from '../log'
import type { KeepAlive } from './stream-keepalive'

/**
 * Liveness of one open socket, in the style of ws's own heartbeat example: ping every
 * `heartbeatMs`, and when nothing at all (data, pong, ping) arrived for `silenceMs`, call
 * `onSilent` so the client terminates the socket. The interface leaves heartbeat rules "not
 * shown" (spec: Events); 5 s / 10 s are ours: a half-open socket is found in 10 s, so REST
 * takes over before prices look frozen, and a ping frame every 5 s costs no request. The timer is
 * re-armed for whichever comes first, the next ping or the silence deadline, so a dead link is
 * noticed at 10 s, not 15 s.
 */
export class StreamHeartbeat {
  private timer: TimerHandle | null = null
  private lastSeen: number
  private lastPing: number

  constructor(
    private readonly clock: Clock,
    private readonly heartbeatMs: number,
    private readonly silenceMs: number,
    private readonly ping: () => void,
    private readonly onSilent: (silentMs: number) => void,
  ) {
    this.lastSeen = this.lastPing = clock.now()
    this.arm(heartbeatMs)
  }

  /** Anything arrived from the peer. Hot path: one clock read. */
  alive(now: number): void {
    this.lastSeen = now
  }

  /** Ping now (checkHealth); the periodic schedule continues from here. */
  pingNow(): void {
    this.lastPing = this.clock.now()
    this.ping()
  }

  stop(): void {
    this.clock.clearTimeout(this.timer)
    this.timer = null
  }

  private arm(delay: number): void {
    this.timer = this.clock.setTimeout(() => this.check(), delay)
  }

  private check(): void {
    this.timer = null
    const now = this.clock.now()
    const silent = now - this.lastSeen
    if (silent >= this.silenceMs) return this.onSilent(silent)
    if (now - this.lastPing >= this.heartbeatMs) this.pingNow()
    const untilPing = this.heartbeatMs - (now - this.lastPing)
    this.arm(Math.max(1, Math.min(untilPing, this.silenceMs - silent)))
  }
}

/** A WebSocket ping, and the service's own keep-alive message once it wants one. */
export function pingWith(ws: WebSocket, keepAlive: KeepAlive, log: Logger): void {
  try {
    ws.ping()
    if (keepAlive.on && ws.readyState === WebSocket.OPEN) ws.send(keepAlive.message())
  } catch (e) {
    log.log('debug', 'stream ping failed', { error: String(e) })
  }
}
