import type { Clock, TimerHandle } from '../clock'

/** Pushes may still be on the way right after an unsubscribe; after this they are ignored ones. */
export const GHOST_GRACE_MS = 5_000
/** A push this long after the unsubscribe already says the service holds the symbol. */
const IN_FLIGHT_MS = 1_000
/** A resync costs a metered handshake (spec: Limits): at most one per this long. */
export const RESYNC_GAP_MS = 60_000

/**
 * Unsubscribe is not in the spec (Events: client messages other than subscribe are "not shown").
 * A service that ignores it keeps pushing what the client left, and the subscriptions it counts
 * against the symbol cap only grow. The client notices (a push for a symbol it left more than
 * GHOST_GRACE_MS ago, or the symbol cap reached on a socket that has unsubscribed something) and
 * resyncs: a fresh socket that subscribes the wanted set only, its handshake through the budget
 * like any other, at most once per RESYNC_GAP_MS.
 */
export class ResyncSchedule {
  private timer: TimerHandle | null = null
  private lastAt = -Infinity
  private ghostAt = -Infinity

  constructor(
    private readonly clock: Clock,
    private readonly onDue: (reason: string) => void,
  ) {}

  /** A push arrived for a symbol this socket left at `leftAt` (null: never subscribed here). */
  unwantedPush(leftAt: number | null, now: number): void {
    if (leftAt === null || now - leftAt <= IN_FLIGHT_MS) return
    this.ghostAt = now
    if (now - leftAt > GHOST_GRACE_MS) this.request('unsubscribe ignored')
  }

  /** The service was seen holding symbols we left since `since`, or a resync is on its way. */
  holdsLeftSymbols(since: number): boolean {
    return this.timer !== null || this.ghostAt >= since
  }

  request(reason: string): void {
    if (this.timer !== null) return
    const wait = Math.max(0, this.lastAt + RESYNC_GAP_MS - this.clock.now())
    this.timer = this.clock.setTimeout(() => {
      this.timer = null
      this.lastAt = this.clock.now()
      this.onDue(reason)
    }, wait)
  }

  clear(): void {
    this.clock.clearTimeout(this.timer)
    this.timer = null
  }
}
