/**
 * A keep-alive of the client's own, sent only once the service shows it wants one. The interface
 * says heartbeat and reconnect guidance exist but shows neither (spec: Events): the client pings
 * at the WebSocket level (stream-heartbeat.ts), which some services do not count as life, and
 * they close a socket that has said nothing for their interval. Each new socket then costs a
 * metered handshake (spec: Limits): a socket dropped every 30 s is about 2,900 a day.
 *
 * The service is taken to want one when it says so (a close reason or an error frame about ping,
 * heartbeat, keep-alive or idleness), or when it closed two healthy sockets of ours after about
 * the same time open (within a fifth of each other, 5 s to 10 min). From then on every socket
 * sends `{"action":"ping"}` (the client's messages are written with `action`: spec, WebSocket
 * stream) every KEEPALIVE_MS. Learned for the session; a false alarm costs a small message every few seconds.
 */
export const KEEPALIVE_MS = 5_000
const ASKS = /\bping|\bpong|heart.?beat|keep.?alive|\bidle\b|no message|inactiv/i
const SAME_LIFETIME = 0.2
const SHORTEST_MS = 5_000
const LONGEST_MS = 10 * 60_000

export class KeepAlive {
  private wanted = false
  private readonly lifetimes: number[] = []
  private readonly shape = JSON.stringify({ action: 'ping' })

  /** Whether sockets send keep-alives now. */
  get on(): boolean {
    return this.wanted
  }

  /** The message a keep-alive sends. */
  message(): string {
    return this.shape
  }

  /** Words from the service (an error frame, a close reason): true when they ask for one. */
  asked(words: string): boolean {
    if (!ASKS.test(words)) return false
    this.wanted = true
    return true
  }

  /** The service closed one of our sockets after `openMs` open, giving `reason`. */
  closedByService(openMs: number, reason: string): void {
    if (this.wanted || this.asked(reason)) return
    if (openMs < SHORTEST_MS || openMs > LONGEST_MS) return
    const alike = this.lifetimes.some(
      (ms) => Math.abs(ms - openMs) <= SAME_LIFETIME * Math.max(ms, openMs),
    )
    this.lifetimes.push(openMs)
    if (this.lifetimes.length > 4) this.lifetimes.shift()
    if (alike) this.wanted = true
  }
}
