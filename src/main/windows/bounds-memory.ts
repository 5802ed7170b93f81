import type { BrowserWindow } from 'electron'
import type { Clock, TimerHandle } from '../../core/clock'
import { saveWindowState, type WindowState } from './window-state'

/** Writes bounds at most this often while the user drags or resizes. */
export const SAVE_DELAY_MS = 500

/**
 * Remembers where a window is: its normal bounds (and maximised flag) go to `stateFile` shortly
 * after a move or resize, and at once when asked (before the window closes). Returns saveNow.
 */
export function rememberBounds(
  win: BrowserWindow,
  deps: { stateFile: string; clock: Clock },
): () => void {
  let saveTimer: TimerHandle | null = null
  const saveNow = (): void => {
    deps.clock.clearTimeout(saveTimer)
    saveTimer = null
    if (win.isDestroyed()) return
    const b = win.getNormalBounds()
    const next: WindowState = {
      x: b.x,
      y: b.y,
      width: b.width,
      height: b.height,
      maximized: win.isMaximized(),
    }
    // Losing a window position is not worth a notice.
    saveWindowState(deps.stateFile, next).catch(() => undefined)
  }
  const saveSoon = (): void => {
    saveTimer ??= deps.clock.setTimeout(saveNow, SAVE_DELAY_MS)
  }
  win.on('resize', saveSoon)
  win.on('move', saveSoon)
  win.on('maximize', saveSoon)
  win.on('unmaximize', saveSoon)
  return saveNow
}
