import { join } from 'node:path'
import { BrowserWindow, screen, type BrowserWindowConstructorOptions } from 'electron'
import type { Clock } from '../../core/clock'
import { guardWebContents } from '../security'
import { rememberBounds } from './bounds-memory'
import { keepOnScreen } from './keep-on-screen'
import { MAIN_WINDOW_SIZES, fitToDisplays, type SizeRules, type WindowState } from './window-state'
import { mainWindowOptions, type WindowOptionsInput } from './window-options'

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

/**
 * The one app window. Security flags follow Electron's checklist: the page gets no Node, runs
 * sandboxed in its own context and reaches main only through the preload's narrow API.
 *
 * Its options (and the sandbox every window shares) are in window-options.ts.
 *
 * Close behaviour (a small state machine):
 *   open --close, closeToTray && !quitting--> hidden (tray keeps running; alerts still notify)
 *   open --close, otherwise--> closed
 *   hidden --show (tray, second launch, notification click)--> open
 *   any --Quit from tray/menu (quitting = true)--> closed
 */
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
