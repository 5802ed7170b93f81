import type { BrowserWindow } from 'electron'
import type { BridgeEvent } from '../../shared/bridge'
import { sendToWindow } from '../ipc-bridge'
import { createMainWindow, revealWindow, type MainWindowDeps } from './main-window'
import { reassertOnTop } from './strip-on-top'

/**
 * The main window over the app's life: at most one at a time, opened again when shown after it
 * closed for real, hidden and shown by the tray. It owns the handle every other part used to
 * share as a mutable `win`; they ask it instead.
 *   none --start, show()--> open
 *   open --closed for real--> none (and, while the strip is open, not macOS: quit)
 * Tests: main-windows.spec.ts; main-window.ts draws one window's own close behaviour.
 */
export interface MainWindows {
  /** The live window, if any. */
  readonly window: BrowserWindow | null
  readonly visible: boolean
  /** Opens (when none is open) and brings the window forward. */
  show(): void
  /** Hides a visible window, else shows it. */
  toggle(): void
  /** Shows the window and sends it an event (openSymbol, showShortcuts). */
  showWith(event: BridgeEvent): void
  /** Calls `listener` whenever the window is shown or hidden; returns the unsubscribe. */
  onVisibility(listener: () => void): () => void
  /** From now on nothing opens a window (a late openSymbol while quitting). */
  stop(): void
}

export interface MainWindowsDeps extends Omit<MainWindowDeps, 'closeToTray'> {
  /** Whether a close may hide the window (a tray is there to bring it back). */
  closeToTray(): boolean
  /** The strip window, if open: our full-screen changes make the OS drop it (strip-on-top.ts). */
  stripWindow(): BrowserWindow | null
  /** Closed for real while the strip is open: quit as closing the last window would. */
  quitWithStrip(): void
  platform: NodeJS.Platform
}

export function openMainWindows(deps: MainWindowsDeps): MainWindows {
  let win: BrowserWindow | null = null
  let stopped = false
  const visibility = new Set<() => void>()
  const visibilityChanged = (): void => {
    for (const listener of visibility) listener()
  }
  const live = (): BrowserWindow | null => (win !== null && !win.isDestroyed() ? win : null)
  const open = (): BrowserWindow => {
    const created = createMainWindow(deps)
    created.on('show', visibilityChanged)
    created.on('hide', visibilityChanged)
    created.on('enter-full-screen', () => reassertOnTop(deps.stripWindow()))
    created.on('leave-full-screen', () => reassertOnTop(deps.stripWindow()))
    created.on('closed', () => {
      if (win === created) win = null
      if (!deps.isQuitting() && deps.stripWindow() !== null && deps.platform !== 'darwin')
        deps.quitWithStrip()
    })
    return created
  }
  const show = (): void => {
    if (stopped) return
    win = live() ?? open()
    revealWindow(win)
  }
  win = open()
  return {
    get window() {
      return live()
    },
    get visible() {
      return live()?.isVisible() ?? false
    },
    show,
    toggle: () => {
      const current = live()
      if (current?.isVisible()) current.hide()
      else show()
    },
    showWith: (event) => {
      show()
      sendToWindow(win, event)
    },
    onVisibility: (listener) => {
      visibility.add(listener)
      return () => visibility.delete(listener)
    },
    stop: () => {
      stopped = true
      visibility.clear()
    },
  }
}
