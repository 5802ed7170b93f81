import type { HostConnection } from '../bridge'
import type { AppState } from '../state/app-state.svelte'

/** Apps whose session runs (main.ts starts it before the view is loaded). */
const running = new WeakSet<AppState>()

/**
 * Starts a view's session with the host (main window or ticker strip): events, the first
 * snapshot, and a fresh snapshot after the bridge reconnects (events may have been missed while
 * it was down). Returns the stop. A session already running (started by main.ts before the view's
 * code loaded) is left to run: the view's call then does nothing.
 */
export function startSession(app: AppState, connection: HostConnection | null): () => void {
  if (running.has(app)) return () => {}
  running.add(app)
  const stop = app.start()
  void app.load()
  const off = connection?.onConnection((state, reconnected) => {
    app.hostConnected = state === 'open'
    if (reconnected) void app.load()
  })
  return () => {
    running.delete(app)
    stop()
    off?.()
  }
}
