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

/**
 * Resolves in a task after the next frame is drawn (a task of its own where there are no frames:
 * jsdom). For telling the host about a change the screen already shows: a sort's or a tab's
 * message is encoded and sent after the frame that shows it, not inside it.
 */
export function afterPaint(): Promise<void> {
  return new Promise((resolve) => {
    const task = (): void => void setTimeout(resolve, 0)
    if (typeof requestAnimationFrame === 'function') requestAnimationFrame(task)
    else task()
  })
}
