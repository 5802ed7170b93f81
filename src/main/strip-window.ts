import { BrowserWindow, screen, type BrowserWindowConstructorOptions } from 'electron'
import type { Clock } from '../core/clock'
import { rememberBounds } from './bounds-memory'
import { preloadPath, secureWebPreferences } from './main-window'
import { keepOnScreen } from './keep-on-screen'
import { guardWebContents } from './security'
import { keepStripOnTop } from './strip-on-top'
import { fitToDisplays, type Rect, type SizeRules, type WindowState } from './window-state'

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

export function stripWindowOptions(opts: {
  preloadPath: string
  state: WindowState
  iconPath?: string
}): BrowserWindowConstructorOptions {
  return {
    x: opts.state.x,
    y: opts.state.y,
    width: opts.state.width,
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
    show: false,
    title: 'Tickdesk ticker strip',
    backgroundColor: '#181c22',
    ...(opts.iconPath ? { icon: opts.iconPath } : {}),
    webPreferences: secureWebPreferences(opts.preloadPath),
  }
}

export interface StripWindowDeps {
  mainDir: string
  /** The renderer URL with ?view=strip. */
  url: string
  isAppUrl: (url: string) => boolean
  remembered: WindowState | null
  stateFile: string
  clock: Clock
  platform: NodeJS.Platform
  iconPath?: string
}

export function createStripWindow(deps: StripWindowDeps): BrowserWindow {
  const workAreas = screen.getAllDisplays().map((d) => d.workArea)
  const state = fitToDisplays(deps.remembered, workAreas, STRIP_SIZES)
  const win = new BrowserWindow(
    stripWindowOptions({
      preloadPath: preloadPath(deps.mainDir),
      state: { ...state, maximized: false },
      ...(deps.iconPath ? { iconPath: deps.iconPath } : {}),
    }),
  )
  guardWebContents(win.webContents, deps.isAppUrl)
  keepStripOnTop(win, deps.platform)
  keepOnScreen(win, STRIP_SIZES)
  // Shown without taking focus from what the trader is typing into.
  win.once('ready-to-show', () => win.showInactive())
  const saveNow = rememberBounds(win, deps)
  win.on('close', saveNow)
  void win.loadURL(deps.url)
  return win
}
