/** Node's longest timer delay. */
const MAX_TIMER_MS = 2 ** 31 - 1

/**
 * Resolves when the signal aborts (SIGINT/SIGTERM) or after ms, whichever comes first, and holds
 * the process open until then. The clock's timers are unref'd (they never keep a process alive on
 * their own), so without this hold a long-running command whose socket had just closed, waiting
 * on a reconnect timer, ended with exit 0 and no word: `tickdesk watch` quit after a laptop sleep.
 */
export function untilAborted(signal: AbortSignal, ms?: number): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve()
    const timer =
      ms === undefined ? setInterval(() => undefined, MAX_TIMER_MS) : setTimeout(done, ms)
    function done(): void {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    signal.addEventListener('abort', done, { once: true })
  })
}
