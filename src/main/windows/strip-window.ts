import type { BrowserWindow, BrowserWindowConstructorOptions } from 'electron'
import { rememberBounds } from './bounds-memory'
import {
  baseWindowOptions,
  openAppWindow,
  type WindowDeps,
  type WindowOptionsInput,
} from './main-window'
import { keepStripOnTop } from './strip-on-top'
import type { Rect, SizeRules } from './window-state'

/**
 * The ticker strip's window: small, frameless, always on top, off the taskbar, one line high and
 * as wide as the trader drags it. It loads the same renderer (in strip mode, ?view=strip) with
 * the same sandboxed preload and bridge as the main window. It is moved by its grip (the page's
 * -webkit-app-region: drag) and remembers its place and size in strip-window-state.json.
 */
export const STRIP_WINDOW_STATE_FILE = 'strip-window-state.json'

export const STRIP_SIZES: SizeRules = {
  default: { width: 960, height: 40 },
  min: { width: 320, height: 32 },
  // First time: along the top of the primary display, centred, clear of the menu bar.
  place: (size, area: Rect) => ({
    x: Math.round(area.x + (area.width - size.width) / 2),
    y: area.y + 8,
  }),
}
/** Taller than this is no longer a strip: the content is one line. */
export const STRIP_MAX_HEIGHT = 96

export function stripWindowOptions(opts: WindowOptionsInput): BrowserWindowConstructorOptions {
  return {
    ...baseWindowOptions(opts),
    height: Math.min(opts.state.height, STRIP_MAX_HEIGHT),
    minWidth: STRIP_SIZES.min.width,
    minHeight: STRIP_SIZES.min.height,
    maxHeight: STRIP_MAX_HEIGHT,
    frame: false,
    alwaysOnTop: true,
    skipTaskbar: true,
    resizable: true,
    minimizable: false,
    maximizable: false,
    fullscreenable: false,
    title: 'Tickdesk ticker strip',
    backgroundColor: '#181c22',
  }
}

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
