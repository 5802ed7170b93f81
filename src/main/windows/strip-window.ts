import type { BrowserWindow } from 'electron'
import { rememberBounds } from './bounds-memory'
import { openAppWindow, type WindowDeps } from './main-window'
import { keepStripOnTop } from './strip-on-top'
import { STRIP_SIZES, stripWindowOptions } from './window-options'

export { STRIP_MAX_HEIGHT, STRIP_SIZES, stripWindowOptions } from './window-options'

/**
 * The ticker strip's window: small, frameless, always on top, off the taskbar, one line high and
 * as wide as the trader drags it. It loads the same renderer (in strip mode, ?view=strip) with
 * the same sandboxed preload and bridge as the main window. It is moved by its grip (the page's
 * -webkit-app-region: drag) and remembers its place and size in strip-window-state.json.
 */
export const STRIP_WINDOW_STATE_FILE = 'strip-window-state.json'

export interface StripWindowDeps extends WindowDeps {
  platform: NodeJS.Platform
}

export function createStripWindow(deps: StripWindowDeps): BrowserWindow {
  // The strip is never maximised: its options take the place and size only.
  const { win } = openAppWindow(deps, STRIP_SIZES, stripWindowOptions)
  keepStripOnTop(win, deps.platform)
  // Shown without taking focus from what the trader is typing into.
  win.once('ready-to-show', () => win.showInactive())
  const saveNow = rememberBounds(win, deps)
  win.on('close', saveNow)
  void win.loadURL(deps.url)
  return win
}
