import { powerMonitor, screen, type BrowserWindow } from 'electron'

/**
 * The ticker strip must stay above other windows, but the OS can drop a window's topmost state
 * behind its back: after another app went full screen or changed the display mode (electron#2097),
 * after a lock screen, or when a display changes. Electron keeps reporting isAlwaysOnTop() true
 * then, so the flag is set off and on again (the OS re-applies it) whenever one of those moments
 * passes, and whenever the strip loses focus to another window (a full-screen app taking focus).
 * On macOS the strip also shows over full-screen apps' spaces.
 *
 * Returns the unsubscribe; it also ends when the strip closes.
 */
export function keepStripOnTop(strip: BrowserWindow, platform: NodeJS.Platform): () => void {
  const reassert = (): void => reassertOnTop(strip)
  if (platform === 'darwin') strip.setVisibleOnAllWorkspaces(true, { visibleOnFullScreen: true })
  const screenEvents = ['display-added', 'display-removed', 'display-metrics-changed'] as const
  const powerEvents = ['resume', 'unlock-screen'] as const
  for (const name of screenEvents) screen.on(name as 'display-added', reassert)
  for (const name of powerEvents) powerMonitor.on(name as 'resume', reassert)
  strip.on('show', reassert)
  strip.on('blur', reassert)
  const stop = (): void => {
    for (const name of screenEvents) screen.off(name as 'display-added', reassert)
    for (const name of powerEvents) powerMonitor.off(name as 'resume', reassert)
  }
  strip.once('closed', stop)
  return stop
}

/** Off and on again: the OS re-applies the topmost state (a no-op for a window already on top). */
export function reassertOnTop(strip: BrowserWindow | null): void {
  if (!strip || strip.isDestroyed()) return
  strip.setAlwaysOnTop(false)
  strip.setAlwaysOnTop(true, 'floating')
}
