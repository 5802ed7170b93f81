/**
 * Time is injected so backoff, heartbeats, quotas and alerts can be tested without sleeping
 * in real time. Production code takes a Clock; tests pass a FakeClock.
 */
export type TimerHandle = { readonly id: number } | ReturnType<typeof setTimeout>

export interface Clock {
  now(): number
  setTimeout(fn: () => void, ms: number): TimerHandle
  clearTimeout(handle: TimerHandle | null | undefined): void
}

/**
 * Node fires a timer longer than 2^31 - 1 ms (24.8 days) after 1 ms instead. Waits that long are
 * real (a monthly quota resets weeks away): the timer fires early, at the cap, and every caller
 * re-checks its deadline when its timer fires.
 */
const MAX_TIMER_MS = 2 ** 31 - 1

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    const t = setTimeout(fn, Math.min(ms, MAX_TIMER_MS))
    // Timers never keep a CLI or test process alive on their own. (In a page, where the renderer's
    // tests also type-check this file, a timer is a number and has nothing to unref.)
    const node = t as unknown as { unref?: () => void }
    if (typeof node === 'object') node.unref?.()
    return t
  },
  clearTimeout: (handle) => {
    if (handle != null) clearTimeout(handle as ReturnType<typeof setTimeout>)
  },
}

/**
 * Calls `fn` every `ms` on `clock` between start() and stop(): one timer at a time, the next set
 * once `fn` has returned, so a slow call never overlaps the next. start() again restarts the wait.
 */
export class Repeater {
  private timer: TimerHandle | null = null

  constructor(
    private readonly clock: Clock,
    private readonly ms: number,
    private readonly fn: () => void,
  ) {}

  start(): void {
    this.stop()
    this.timer = this.clock.setTimeout(() => {
      this.fn()
      this.start()
    }, this.ms)
  }

  stop(): void {
    this.clock.clearTimeout(this.timer)
    this.timer = null
  }
}

interface PendingTimer {
  id: number
  at: number
  fn: () => void
}

/** A manual clock: `advance(ms)` runs due timers in time order; `jump(ms)` moves time without running them (system sleep). */
export class FakeClock implements Clock {
  private current: number
  private nextId = 1
  private timers: PendingTimer[] = []

  constructor(start = Date.UTC(2026, 0, 5, 14, 30)) {
    this.current = start
  }

  now(): number {
    return this.current
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const timer = { id: this.nextId++, at: this.current + Math.max(0, ms), fn }
    this.timers.push(timer)
    return { id: timer.id }
  }

  clearTimeout(handle: TimerHandle | null | undefined): void {
    if (handle == null || typeof handle !== 'object' || !('id' in handle)) return
    this.timers = this.timers.filter((t) => t.id !== handle.id)
  }

  /** Advances time, firing every timer that falls due, including ones scheduled while advancing. */
  advance(ms: number): void {
    const target = this.current + ms
    for (;;) {
      const due = this.timers
        .filter((t) => t.at <= target)
        .sort((a, b) => a.at - b.at || a.id - b.id)[0]
      if (!due) break
      this.timers = this.timers.filter((t) => t !== due)
      this.current = Math.max(this.current, due.at)
      due.fn()
    }
    this.current = target
  }

  /** Moves the wall clock forward without firing timers, like a laptop waking from sleep. */
  jump(ms: number): void {
    this.current += ms
  }

  pendingTimers(): number {
    return this.timers.length
  }
}
