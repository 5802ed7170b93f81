import { join } from 'node:path'
import { BrowserWindow, screen, type BrowserWindowConstructorOptions } from 'electron'
import type { Clock } from '../../core/clock'
import { guardWebContents } from '../security'
import { rememberBounds } from './bounds-memory'
import { keepOnScreen } from './keep-on-screen'
import {
  MAIN_WINDOW_SIZES,
  MIN_SIZE,
  fitToDisplays,
  type SizeRules,
  type WindowState,
} from './window-state'

/**
 * The one app window. Security flags follow Electron's checklist: the page gets no Node, runs
 * sandboxed in its own context and reaches main only through the preload's narrow API.
 *
 * Close behaviour (a small state machine):
 *   open --close, closeToTray && !quitting--> hidden (tray keeps running; alerts still notify)
 *   open --close, otherwise--> closed
 *   hidden --show (tray, second launch, notification click)--> open
 *   any --Quit from tray/menu (quitting = true)--> closed
 */
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

/** The preload bundle next to the main bundle (out/main -> out/preload/index.cjs). */
export function preloadPath(mainDir: string): string {
  return join(mainDir, '..', 'preload', 'index.cjs')
}

/** What every Tickdesk window is opened with. */
export interface WindowDeps {
  /** Folder of the built main bundle; the preload sits at ../preload/index.cjs. */
  mainDir: string
  /** The renderer URL (the strip's with ?view=strip). */
  url: string
  isAppUrl: (url: string) => boolean
  remembered: WindowState | null
  stateFile: string
  clock: Clock
  iconPath?: string
}

export interface MainWindowDeps extends WindowDeps {
  closeToTray: () => boolean
  isQuitting: () => boolean
}

export function createMainWindow(deps: MainWindowDeps): BrowserWindow {
  const { win, state } = openAppWindow(deps, MAIN_WINDOW_SIZES, mainWindowOptions)
  if (state.maximized) win.maximize()
  win.once('ready-to-show', () => win.show())

  const saveNow = rememberBounds(win, deps)

  win.on('close', (event) => {
    saveNow()
    if (deps.closeToTray() && !deps.isQuitting()) {
      event.preventDefault()
      win.hide()
    }
  })

  void win.loadURL(deps.url)
  return win
}

/**
 * A Tickdesk window at its remembered place fitted to today's displays, its page guarded (only
 * the app's own URL) and kept on screen when displays change. Not shown yet: each caller does.
 */
export function openAppWindow(
  deps: Pick<WindowDeps, 'mainDir' | 'isAppUrl' | 'remembered' | 'iconPath'>,
  sizes: SizeRules,
  options: (input: WindowOptionsInput) => BrowserWindowConstructorOptions,
): { win: BrowserWindow; state: WindowState } {
  const workAreas = screen.getAllDisplays().map((d) => d.workArea)
  const state = fitToDisplays(deps.remembered, workAreas, sizes)
  const win = new BrowserWindow(
    options({
      preloadPath: preloadPath(deps.mainDir),
      state,
      ...(deps.iconPath ? { iconPath: deps.iconPath } : {}),
    }),
  )
  guardWebContents(win.webContents, deps.isAppUrl)
  keepOnScreen(win, sizes)
  return { win, state }
}

/** Brings the window back from hidden, minimised or behind other windows. */
export function revealWindow(win: BrowserWindow | null): void {
  if (!win || win.isDestroyed()) return
  if (win.isMinimized()) win.restore()
  if (!win.isVisible()) win.show()
  win.focus()
}
