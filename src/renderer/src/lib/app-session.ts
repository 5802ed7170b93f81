import type { HostConnection } from '../bridge'
import type { AppState } from '../state/app-state.svelte'

/**
 * Starts a view's session with the host (main window or ticker strip): events, the first
 * snapshot, and a fresh snapshot after the bridge reconnects (events may have been missed while
 * it was down). Returns the stop.
 */
export function startSession(app: AppState, connection: HostConnection | null): () => void {
  const stop = app.start()
  void app.load()
  const off = connection?.onConnection((state, reconnected) => {
    app.hostConnected = state === 'open'
    if (reconnected) void app.load()
  })
  return () => {
    stop()
    off?.()
  }
}
