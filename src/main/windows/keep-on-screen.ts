import { screen, type BrowserWindow } from 'electron'
import { fitToDisplays, type SizeRules } from './window-state'

/**
 * Keeps a window where the trader can reach it while the app runs. Unplugging a monitor, docking
 * a laptop or changing a display's scale (DPI) can leave a window on a display that is gone or
 * past the edge of one that shrank; the OS does not always move it back. After each such change
 * the window is fitted again with the rule used at start-up (window-state.ts: fitToDisplays), so a
 * window still visibly on a display stays exactly where it is. A maximised or full-screen window
 * is the OS's to place. Returns the unsubscribe.
 */
export function keepOnScreen(win: BrowserWindow, sizes: SizeRules): () => void {
  const refit = (): void => {
    if (win.isDestroyed() || win.isMaximized() || win.isFullScreen()) return
    const workAreas = screen.getAllDisplays().map((d) => d.workArea)
    const now = win.getBounds()
    const { x, y, width, height } = fitToDisplays({ ...now, maximized: false }, workAreas, sizes)
    if (x !== now.x || y !== now.y || width !== now.width || height !== now.height)
      win.setBounds({ x, y, width, height })
  }
  const events = ['display-removed', 'display-added', 'display-metrics-changed'] as const
  for (const name of events) screen.on(name as 'display-removed', refit)
  const stop = (): void => {
    for (const name of events) screen.off(name as 'display-removed', refit)
  }
  win.once('closed', stop)
  return stop
}
