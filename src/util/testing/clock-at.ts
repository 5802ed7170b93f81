import { systemClock, type Clock } from '../clock'

/**
 * A clock that runs in real time from a chosen instant: timers are the system's, `now()` is that
 * instant plus the time elapsed since. For specs whose outcome depends on the calendar (which
 * markets trade, what a session costs) but that run real sockets and processes, where a manual
 * clock cannot drive the other side. The same spec then gives the same answer on any day.
 */
export function clockAt(startMs: number, real: Clock = systemClock): Clock {
  const offset = startMs - real.now()
  return {
    now: () => real.now() + offset,
    setTimeout: (fn, ms) => real.setTimeout(fn, ms),
    clearTimeout: (handle) => real.clearTimeout(handle),
  }
}

/** Monday 5 January 2026, 14:30 UTC: FX, metals, futures and US hours trade (Asia's are shut). */
export const WEEKDAY_AFTERNOON_UTC = Date.UTC(2026, 0, 5, 14, 30)
