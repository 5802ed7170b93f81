import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { BrowserWindow } from 'electron'
import { Menu, app, safeStorage, session, shell } from 'electron'
import type { AppHostApi, LogFolder, SecretStore } from '../app/host-api'
import { logAppActivity } from '../app/logs/app-activity-log'
import { openHostLog } from '../app/logs/host-log'
import type { Logger } from '../core/log'
import { systemClock, type Clock } from '../core/clock'
import { startAlertNotifier } from './alert-notifier'
import { appMenuTemplate } from './app-menu'
import { isAppUrl, rendererLocation, rendererUrl, stripUrl } from './app-url'
import { HostSettings } from './host-settings'
import { confirmKeyHostInDialog } from './key-host-dialog'
import { electronKeytarImporter } from './electron-keytar'
import { forwardEvents, registerBridgeIpc, sendToWindow } from './ipc-bridge'
import { createMainWindow, revealWindow } from './main-window'
import { createSecretStore, keychainProfile } from '../app/secrets/secret-store'
import { keychainWebhookSecrets, type WebhookSecrets } from '../app/secrets/webhook-secrets'
import { applySessionPolicy, openExternalLink } from './security'
import { claimSingleInstance } from './single-instance'
import { applyLaunchAtLogin, watchSystemResume } from './system-events'
import { StripController } from './strip-controller'
import { reassertOnTop } from './strip-on-top'
import { STRIP_WINDOW_STATE_FILE, createStripWindow } from './strip-window'
import { TickerTray } from './ticker-tray'
import { WINDOW_STATE_FILE, loadWindowState } from './window-state'

/**
 * Wires the Electron host around the application service: single instance, session policy, IPC,
 * window, tray, notifications, menu, power events and an orderly shutdown. The service factory is
 * a parameter so this file never imports src/app's implementation (only index.ts does).
 *
 * Lifecycle: starting --second instance--> quit at once
 *            starting --ready, service created--> running
 *            running --Quit (tray, menu, Cmd+Q, OS)--> quitting: service.close(), then exit
 */
export interface ElectronHostOptions {
  createService(opts: {
    dataDir: string
    env: NodeJS.ProcessEnv
    secretStore: SecretStore
    logger: Logger
    logFolder: LogFolder
    /** Asks in a main-process dialog before the API key follows a base URL to another host. */
    confirmKeyHost: (change: { from: string; to: string }) => Promise<boolean>
    webhookSecrets: WebhookSecrets
  }): Promise<AppHostApi>
  /** Folder of the built main bundle (out/main). */
  mainDir: string
  env: NodeJS.ProcessEnv
  platform: NodeJS.Platform
  clock?: Clock
}

export const HELP_URL = 'https://github.com/tickdesk/tickdesk#readme'

function resourcesDir(mainDir: string): string {
  // Packaged: electron-builder's extraResources copies the icons next to app.asar.
  return app.isPackaged ? process.resourcesPath : join(mainDir, '..', '..', 'resources')
}

export async function startElectronHost(opts: ElectronHostOptions): Promise<void> {
  const clock = opts.clock ?? systemClock
  let win: BrowserWindow | null = null
  let quitting = false
  const quit = (): void => {
    quitting = true
    app.quit()
  }
  if (!claimSingleInstance(() => revealWindow(win))) return

  await app.whenReady()
  const dataDir = opts.env['TICKDESK_DATA_DIR'] || app.getPath('userData')
  await mkdir(dataDir, { recursive: true })
  const log = openHostLog({ dataDir, host: 'electron', clock })
  const logFolder: LogFolder = {
    path: log.dir,
    open: async () => {
      await mkdir(log.dir, { recursive: true })
      // openPath resolves with an error message, '' when the folder was shown.
      return (await shell.openPath(log.dir)) === ''
    },
  }
  const secretStore = await createSecretStore({
    env: opts.env,
    dataDir,
    platform: opts.platform,
    safeStorage,
    profile: keychainProfile(opts.env),
    importKeytar: electronKeytarImporter(app.getAppPath(), app.isPackaged),
    clock,
  })
  const service = await opts.createService({
    dataDir,
    env: opts.env,
    secretStore,
    logger: log.logger,
    logFolder,
    confirmKeyHost: confirmKeyHostInDialog(() => win),
    webhookSecrets: keychainWebhookSecrets({
      profile: keychainProfile(opts.env),
      importKeytar: electronKeytarImporter(app.getAppPath(), app.isPackaged),
    }),
  })
  const stopActivityLog = logAppActivity(service, log.logger)

  const location = rendererLocation({
    mainDir: opts.mainDir,
    isPackaged: app.isPackaged,
    env: opts.env,
  })
  const ownUrl = (url: string): boolean => isAppUrl(url, location)
  applySessionPolicy(session.defaultSession)
  const stops: Array<() => void> = [registerBridgeIpc(service, ownUrl)]
  const settings = await HostSettings.load(service)
  stops.push(() => settings.close())

  applyLaunchAtLogin(settings.value.launchAtLogin, opts.platform)
  stops.push(
    settings.onChange((next, prev) => {
      if (next.launchAtLogin !== prev.launchAtLogin)
        applyLaunchAtLogin(next.launchAtLogin, opts.platform)
    }),
  )

  const resources = resourcesDir(opts.mainDir)
  const iconPath = join(resources, 'icon.png')
  const stateFile = join(dataDir, WINDOW_STATE_FILE)
  const remembered = await loadWindowState(stateFile)
  const stripStateFile = join(dataDir, STRIP_WINDOW_STATE_FILE)
  // Where the strip was last left: read once, then kept as it closes (the file follows it too).
  let stripPlace = await loadWindowState(stripStateFile)
  const strip = new StripController({
    settings,
    app: service,
    isQuitting: () => quitting,
    createWindow: () => {
      const created = createStripWindow({
        mainDir: opts.mainDir,
        url: stripUrl(location),
        isAppUrl: ownUrl,
        remembered: stripPlace,
        stateFile: stripStateFile,
        clock,
        platform: opts.platform,
        iconPath,
      })
      created.on('close', () => {
        stripPlace = { ...created.getNormalBounds(), maximized: false }
      })
      return created
    },
  })
  stops.push(() => strip.destroy())

  const setMenu = (): void =>
    Menu.setApplicationMenu(
      Menu.buildFromTemplate(
        appMenuTemplate({
          platform: opts.platform,
          isDev: !app.isPackaged,
          appName: 'Tickdesk',
          helpUrl: HELP_URL,
          openExternal: (url) => void openExternalLink(url),
          openLogFolder: () => void logFolder.open(),
          quit,
          stripOpen: settings.value.strip.open,
          toggleStrip: () => strip.toggle(),
          showShortcuts: () => {
            showWindow()
            if (win && !win.isDestroyed()) sendToWindow(win, { type: 'showShortcuts' })
          },
        }),
      ),
    )
  setMenu()
  stops.push(
    settings.onChange((next, prev) => {
      if (next.strip.open !== prev.strip.open) setMenu()
    }),
  )

  let tray: TickerTray | null = null
  const openWindow = (): BrowserWindow => {
    const created = createMainWindow({
      mainDir: opts.mainDir,
      url: rendererUrl(location),
      isAppUrl: ownUrl,
      remembered,
      stateFile,
      clock,
      closeToTray: () => settings.value.closeToTray && tray !== null,
      isQuitting: () => quitting,
      iconPath,
    })
    created.on('show', () => tray?.requestRender())
    created.on('hide', () => tray?.requestRender())
    // Our own window going full screen or back is one of the moments the OS drops the strip.
    created.on('enter-full-screen', () => reassertOnTop(strip.window))
    created.on('leave-full-screen', () => reassertOnTop(strip.window))
    created.on('closed', () => {
      if (win === created) win = null
      // Closed for real while the strip is open: quit as closing the last window would.
      if (!quitting && strip.window !== null && opts.platform !== 'darwin') quit()
    })
    return created
  }
  win = openWindow()
  const showWindow = (): void => {
    if (!win || win.isDestroyed()) win = openWindow()
    revealWindow(win)
  }

  stops.push(forwardEvents(service, () => [win, strip.window]))
  // The strip asks for a symbol (openSymbol): the main window comes forward to show it.
  stops.push(
    service.subscribe((event) => {
      if (event.type === 'openSymbol') showWindow()
    }),
  )
  tray = new TickerTray({
    app: service,
    settings,
    clock,
    platform: opts.platform,
    iconPath: join(
      resources,
      opts.platform === 'darwin' ? 'tray-iconTemplate.png' : 'tray-icon.png',
    ),
    isWindowVisible: () => win !== null && !win.isDestroyed() && win.isVisible(),
    toggleWindow: () => {
      if (win && !win.isDestroyed() && win.isVisible()) win.hide()
      else showWindow()
    },
    toggleStrip: () => strip.toggle(),
    openSymbol: (key) => {
      showWindow()
      sendToWindow(win, { type: 'openSymbol', key })
    },
    quit,
  })
  stops.push(() => tray?.destroy())
  stops.push(
    startAlertNotifier({
      app: service,
      settings: () => settings.value,
      showWindow,
      sendToRenderer: (event) => sendToWindow(win, event),
    }),
  )
  service.announceOwedAlerts()
  stops.push(watchSystemResume(service))

  app.on('activate', showWindow) // macOS: dock icon clicked
  app.on('before-quit', () => {
    quitting = true
  })
  app.on('window-all-closed', () => {
    // Closed for real (not hidden to the tray): on macOS apps stay in the dock by convention.
    if (opts.platform !== 'darwin') quit()
  })
  let closed = false
  app.on('will-quit', (event) => {
    if (closed) return
    event.preventDefault()
    for (const stop of stops.splice(0)) stop()
    // Give the service a bounded moment to flush settings and close its socket.
    const bounded = Promise.race([
      service.close(),
      new Promise((r) => clock.setTimeout(() => r(undefined), 3000)),
    ])
    void bounded
      .catch((error: unknown) => log.logger.log('error', 'shutdown failed', { error }))
      .then(() => {
        stopActivityLog()
        log.logger.log('info', 'quit')
        return log.close()
      })
      .finally(() => {
        closed = true
        app.quit()
      })
  })
}
