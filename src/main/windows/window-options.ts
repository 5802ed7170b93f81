import type { BrowserWindowConstructorOptions } from 'electron'
import { MIN_SIZE, type Rect, type SizeRules, type WindowState } from './window-state'

/**
 * What every Tickdesk window is opened with, as plain data (no electron at run time, so the
 * security scan and tests read the real options): the renderer's sandbox follows Electron's
 * security checklist (no Node in the page, its own context, the OS sandbox, no <webview>), the
 * same for the main window and the ticker strip.
 */

/** The main window. */
export function mainWindowOptions(opts: WindowOptionsInput): BrowserWindowConstructorOptions {
  return {
    ...baseWindowOptions(opts),
    minWidth: MIN_SIZE.width,
    minHeight: MIN_SIZE.height,
    title: 'Tickdesk',
    backgroundColor: '#0f1419',
  }
}

/** Every Tickdesk window: at its remembered place, hidden until drawn, its icon, the sandbox. */
export function baseWindowOptions(opts: WindowOptionsInput): BrowserWindowConstructorOptions {
  return {
    x: opts.state.x,
    y: opts.state.y,
    width: opts.state.width,
    height: opts.state.height,
    show: false,
    ...(opts.iconPath ? { icon: opts.iconPath } : {}),
    webPreferences: secureWebPreferences(opts.preloadPath),
  }
}

export interface WindowOptionsInput {
  preloadPath: string
  state: WindowState
  iconPath?: string
}

/** The renderer's sandbox, the same for every Tickdesk window (main and ticker strip). */
export function secureWebPreferences(
  preloadPath: string,
): NonNullable<BrowserWindowConstructorOptions['webPreferences']> {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    experimentalFeatures: false,
    navigateOnDragDrop: false,
    spellcheck: false,
  }
}

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
