import type { Clock, TimerHandle } from '../clock'

/**
 * Notices that the machine slept: a self-rescheduling timer due every `periodMs` that fires
 * much later than due, or a wall clock that jumped forward between ticks. After a resume the
 * stream's socket is usually dead while its own timers still think little time passed, so the
 * engine calls checkHealth() at once instead of waiting up to a heartbeat period.
 *
 * A jump is reported when the tick is late by more than max(2 × period, 5 s), which a busy
 * event loop does not reach in practice; a false alarm only costs one ping and one poll. The
 * short period is what lets a host have live prices within 5 s of waking: a sleep of
 * 7 s or more is always seen at the first tick after it.
 */
export const DEFAULT_SLEEP_PERIOD_MS = 2_000
const SLEEP_FLOOR_MS = 5_000

export function watchForSleep(
  clock: Clock,
  onResume: (gapMs: number) => void,
  periodMs: number = DEFAULT_SLEEP_PERIOD_MS,
): () => void {
  const threshold = Math.max(2 * periodMs, SLEEP_FLOOR_MS)
  let expected = clock.now() + periodMs
  let timer: TimerHandle | null = null
  let stopped = false

  const tick = (): void => {
    if (stopped) return
    const now = clock.now()
    const late = now - expected
    expected = now + periodMs
    timer = clock.setTimeout(tick, periodMs)
    // A backward wall-clock change (NTP, user) only re-bases; it is not a resume.
    if (late > threshold) onResume(late)
  }
  timer = clock.setTimeout(tick, periodMs)

  return () => {
    stopped = true
    clock.clearTimeout(timer)
  }
}
