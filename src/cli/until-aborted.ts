/** Resolves when the signal aborts (SIGINT/SIGTERM) or after ms, whichever comes first. */
export function untilAborted(signal: AbortSignal, ms?: number): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve()
    const timer = ms === undefined ? null : setTimeout(done, ms)
    function done(): void {
      if (timer) clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    signal.addEventListener('abort', done, { once: true })
  })
}
