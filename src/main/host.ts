import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { Menu, app, safeStorage, session, shell, type BrowserWindow } from 'electron'
import type { AppHostApi, LogFolder, SecretStore } from '../app/host-api'
import type { ConfirmKeyMove } from '../app/keys/key-move'
import { openHostLog, type HostLog } from '../app/logs/host-log'
import type { Logger } from '../core/log'
import { systemClock, type Clock } from '../core/clock'
import { startAlertNotifier } from './alert-notifier'
import { appMenuTemplate } from './app-menu'
import { isAppUrl, rendererLocation, rendererUrl, stripUrl } from './app-url'
import { HostSettings } from './host-settings'
import { confirmKeyMoveInDialog } from './key-host-dialog'
import { electronKeytarImporter } from './electron-keytar'
import { forwardEvents, registerBridgeIpc, sendToWindow } from './ipc-bridge'
import { revealWindow } from './windows/main-window'
import { openMainWindows, type MainWindows } from './windows/main-windows'
import { createSecretStore, keychainProfile } from '../app/secrets/secret-store'
import { keychainWebhookSecrets, type WebhookSecrets } from '../app/secrets/webhook-secrets'
import { applySessionPolicy, openExternalLink } from './security'
import { claimSingleInstance } from './single-instance'
import { applyLaunchAtLogin, watchSystemResume } from './system-events'
import { StripController } from './windows/strip-controller'
import { installShutdown, type Shutdown } from './shutdown'
import { STRIP_WINDOW_STATE_FILE, createStripWindow } from './windows/strip-window'
import { TickerTray } from './ticker-tray'
import { WINDOW_STATE_FILE, loadWindowState } from './windows/window-state'

/**
 * Wires the Electron host around the application service, as small parts that each return their
 * stop function to the shutdown part (shutdown.ts), which owns quitting: single instance, the
 * data folder, log and secret store, the app service, session policy and IPC, settings, the
 * strip, the main window (main-windows.ts), the menu, the tray (ticker-tray.ts), notifications
 * and power events.
 *
 * It never starts the app service itself: index.ts injects the start-up every host shares
 * (src/app/hosted-app.ts, with the simulator for demo mode), so from src/app this file takes only
 * types and the host-side parts every host uses: the log file and the secret store.
 *
 * Lifecycle: starting --second instance--> quit at once
 *            starting --ready, service started--> running
 *            running --Quit (tray, menu, Cmd+Q, OS)--> quitting (shutdown.ts): parts stopped,
 *            the service closed within 3 s, the log closed, then exit
 * Tests: src/main/*.spec.ts (each part, vi.mock('electron')), test/electron/electron-host.spec.ts
 * (this start-up run whole against the fake electron module).
 */
export interface ElectronHostOptions {
  /** Starts the app service with what this host gives it (index.ts adds the demo service). */
  startApp(opts: {
    dataDir: string
    env: NodeJS.ProcessEnv
    secretStore: SecretStore
    logger: Logger
    logFolder: LogFolder
    clock: Clock
    /** Asks in a main-process dialog before a key goes to an origin it was not entered for. */
    confirmKeyMove: { confirm: ConfirmKeyMove; where: string }
    webhookSecrets: WebhookSecrets
  }): Promise<{ app: AppHostApi; close(withinMs?: number): Promise<void> }>
  /** Folder of the built main bundle (out/main). */
  mainDir: string
  env: NodeJS.ProcessEnv
  platform: NodeJS.Platform
  clock?: Clock
}

export const HELP_URL = 'https://github.com/tickdesk/tickdesk#readme'
/** How long quitting waits for the service to flush settings and close its socket. */
const CLOSE_WITHIN_MS = 3000

function resourcesDir(mainDir: string): string {
  // Packaged: electron-builder's extraResources copies the icons next to app.asar.
  return app.isPackaged ? process.resourcesPath : join(mainDir, '..', '..', 'resources')
}

export async function startElectronHost(opts: ElectronHostOptions): Promise<void> {
  const clock = opts.clock ?? systemClock
  // A second launch brings the first one's window forward; `windows` exists once ready.
  let windows: MainWindows | null = null
  if (!claimSingleInstance(() => revealWindow(windows?.window ?? null))) return

  await app.whenReady()
  const { dataDir, log, logFolder, hosted } = await startHostedApp(
    opts,
    clock,
    () => windows?.window ?? null,
  )
  const service = hosted.app
  const shutdown = installShutdown({
    platform: opts.platform,
    close: async () => {
      try {
        await hosted.close(CLOSE_WITHIN_MS)
      } finally {
        log.logger.log('info', 'quit')
        await log.close()
      }
    },
    onError: (error) => log.logger.log('error', 'shutdown failed', { error }),
  })

  const location = rendererLocation({
    mainDir: opts.mainDir,
    isPackaged: app.isPackaged,
    env: opts.env,
  })
  const ownUrl = (url: string): boolean => isAppUrl(url, location)
  applySessionPolicy(session.defaultSession)
  shutdown.add(registerBridgeIpc(service, ownUrl))
  const settings = await HostSettings.load(service)
  shutdown.add(() => settings.close())
  shutdown.add(followLaunchAtLogin(settings, opts.platform))

  const resources = resourcesDir(opts.mainDir)
  const iconPath = join(resources, 'icon.png')
  const strip = await startStrip({
    dataDir,
    mainDir: opts.mainDir,
    url: stripUrl(location),
    isAppUrl: ownUrl,
    clock,
    platform: opts.platform,
    iconPath,
    settings,
    service,
    isQuitting: () => shutdown.quitting,
  })
  shutdown.add(() => strip.destroy())

  const shown = openMainWindows({
    mainDir: opts.mainDir,
    url: rendererUrl(location),
    isAppUrl: ownUrl,
    remembered: await loadWindowState(join(dataDir, WINDOW_STATE_FILE)),
    stateFile: join(dataDir, WINDOW_STATE_FILE),
    clock,
    // The tray is made in this same turn, before any close can arrive: it is there to bring
    // a hidden window back.
    closeToTray: () => settings.value.closeToTray,
    isQuitting: () => shutdown.quitting,
    iconPath,
    stripWindow: () => strip.window,
    quitWithStrip: () => shutdown.quit(),
    platform: opts.platform,
  })
  windows = shown
  shutdown.add(() => shown.stop())
  wireAroundWindows({
    platform: opts.platform,
    clock,
    resources,
    service,
    settings,
    logFolder,
    strip,
    shown,
    shutdown,
  })
  app.on('activate', () => shown.show()) // macOS: dock icon clicked
}

/** The data folder, the log and the secret store, then the app service started with them. */
async function startHostedApp(
  opts: ElectronHostOptions,
  clock: Clock,
  mainWindow: () => BrowserWindow | null,
): Promise<{
  dataDir: string
  log: HostLog
  logFolder: LogFolder
  hosted: Awaited<ReturnType<ElectronHostOptions['startApp']>>
}> {
  const dataDir = opts.env['TICKDESK_DATA_DIR'] || app.getPath('userData')
  await mkdir(dataDir, { recursive: true })
  const log = openHostLog({ dataDir, host: 'electron', clock })
  const logFolder = electronLogFolder(log.dir)
  const secretStore = await createSecretStore({
    env: opts.env,
    dataDir,
    platform: opts.platform,
    safeStorage,
    profile: keychainProfile(opts.env),
    importKeytar: electronKeytarImporter(app.getAppPath(), app.isPackaged),
    clock,
  })
  const hosted = await opts.startApp({
    dataDir,
    env: opts.env,
    secretStore,
    logger: log.logger,
    logFolder,
    clock,
    confirmKeyMove: confirmKeyMoveInDialog(mainWindow),
    webhookSecrets: keychainWebhookSecrets({
      profile: keychainProfile(opts.env),
      importKeytar: electronKeytarImporter(app.getAppPath(), app.isPackaged),
    }),
  })
  return { dataDir, log, logFolder, hosted }
}

/**
 * What hangs off the open windows, each handing its stop function to shutdown: the menu, events
 * to both windows, the tray, alert notifications and power events.
 */
function wireAroundWindows(deps: {
  platform: NodeJS.Platform
  clock: Clock
  resources: string
  service: AppHostApi
  settings: HostSettings
  logFolder: LogFolder
  strip: StripController
  shown: MainWindows
  shutdown: Shutdown
}): void {
  const { platform, service, settings, strip, shown, shutdown } = deps
  shutdown.add(
    installAppMenu({
      platform,
      settings,
      logFolder: deps.logFolder,
      quit: () => shutdown.quit(),
      toggleStrip: () => strip.toggle(),
      showShortcuts: () => shown.showWith({ type: 'showShortcuts' }),
    }),
  )
  shutdown.add(forwardEvents(service, () => [shown.window, strip.window]))
  // The strip asks for a symbol (openSymbol): the main window comes forward to show it.
  shutdown.add(
    service.subscribe((event) => {
      if (event.type === 'openSymbol') shown.show()
    }),
  )
  const tray = new TickerTray({
    app: service,
    settings,
    clock: deps.clock,
    platform,
    iconPath: join(
      deps.resources,
      platform === 'darwin' ? 'tray-iconTemplate.png' : 'tray-icon.png',
    ),
    isWindowVisible: () => shown.visible,
    toggleWindow: () => shown.toggle(),
    toggleStrip: () => strip.toggle(),
    openSymbol: (key) => shown.showWith({ type: 'openSymbol', key }),
    quit: () => shutdown.quit(),
  })
  shutdown.add(() => tray.destroy())
  shutdown.add(shown.onVisibility(() => tray.requestRender()))
  shutdown.add(
    startAlertNotifier({
      app: service,
      settings: () => settings.value,
      showWindow: () => shown.show(),
      sendToRenderer: (event) => sendToWindow(shown.window, event),
    }),
  )
  service.announceOwedAlerts()
  shutdown.add(watchSystemResume(service))
}

/** The log folder as Settings opens it: created if need be, shown by the OS. */
function electronLogFolder(dir: string): LogFolder {
  return {
    path: dir,
    open: async () => {
      await mkdir(dir, { recursive: true })
      // openPath resolves with an error message, '' when the folder was shown.
      return (await shell.openPath(dir)) === ''
    },
  }
}

/** Launch at login follows its setting; the stop function ends that. */
function followLaunchAtLogin(settings: HostSettings, platform: NodeJS.Platform): () => void {
  applyLaunchAtLogin(settings.value.launchAtLogin, platform)
  return settings.onChange((next, prev) => {
    if (next.launchAtLogin !== prev.launchAtLogin) applyLaunchAtLogin(next.launchAtLogin, platform)
  })
}

/**
 * The strip's controller, its window placed where the strip was last left: read once here, then
 * kept as each strip window closes (its state file follows it too).
 */
async function startStrip(deps: {
  dataDir: string
  mainDir: string
  url: string
  isAppUrl(url: string): boolean
  clock: Clock
  platform: NodeJS.Platform
  iconPath: string
  settings: HostSettings
  service: AppHostApi
  isQuitting(): boolean
}): Promise<StripController> {
  const stateFile = join(deps.dataDir, STRIP_WINDOW_STATE_FILE)
  let place = await loadWindowState(stateFile)
  return new StripController({
    settings: deps.settings,
    app: deps.service,
    isQuitting: deps.isQuitting,
    createWindow: () => {
      const created = createStripWindow({ ...deps, remembered: place, stateFile })
      created.on('close', () => {
        place = { ...created.getNormalBounds(), maximized: false }
      })
      return created
    },
  })
}

/** The application menu, built again when the strip opens or closes; the stop function ends that. */
function installAppMenu(deps: {
  platform: NodeJS.Platform
  settings: HostSettings
  logFolder: LogFolder
  quit(): void
  toggleStrip(): void
  showShortcuts(): void
}): () => void {
  const setMenu = (): void =>
    Menu.setApplicationMenu(
      Menu.buildFromTemplate(
        appMenuTemplate({
          platform: deps.platform,
          isDev: !app.isPackaged,
          appName: 'Tickdesk',
          helpUrl: HELP_URL,
          openExternal: (url) => void openExternalLink(url),
          openLogFolder: () => void deps.logFolder.open(),
          quit: deps.quit,
          stripOpen: deps.settings.value.strip.open,
          toggleStrip: deps.toggleStrip,
          showShortcuts: deps.showShortcuts,
        }),
      ),
    )
  setMenu()
  return deps.settings.onChange((next, prev) => {
    if (next.strip.open !== prev.strip.open) setMenu()
  })
}
