/**
 * Runs `run` in an idle moment after the frames due (Chromium's requestIdleCallback, within
 * `timeoutMs` at the latest), or in a task of its own where there is none (jsdom). For work a
 * frame need not wait for: measuring a long list's widths, telling the host what is on screen.
 * Returns the cancel.
 */
export function whenIdle(run: () => void, timeoutMs = 500): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(() => run(), { timeout: timeoutMs })
    return () => cancelIdleCallback(id)
  }
  const id = setTimeout(run, 0)
  return () => clearTimeout(id)
}
