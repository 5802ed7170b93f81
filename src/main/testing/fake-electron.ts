/**
 * A hand-written stand-in for the parts of the `electron` module main and preload use. The
 * Electron binary cannot run here (architecture: Why two hosts), so specs load this through
 * `vi.mock('electron', () => import('./testing/fake-electron').then((m) => m.electronModule))`
 * and assert on what OUR code passed in (options, handlers, templates) — never on this fake.
 */
import { FakeEmitter, fakeEvent } from './fake-emitter'
import { FakeNotification, FakeTray, type MenuTemplateItem } from './fake-tray'

export { FakeEmitter, fakeEvent } from './fake-emitter'
export { FakeNotification, FakeTray, type MenuTemplateItem } from './fake-tray'

export class FakeWebContents extends FakeEmitter {
  readonly sent: Array<{ channel: string; payload: unknown }> = []
  destroyed = false
  /** The page's URL once its window loaded one: what main sees as event.senderFrame.url. */
  url = ''
  windowOpenHandler: ((details: { url: string }) => { action: string }) | null = null
  send(channel: string, payload: unknown): void {
    this.sent.push({ channel, payload })
    // To the page's ipcRenderer when this window's page is the connected one (connectRenderer).
    if (fake.renderer === this)
      fake.ipcRenderer.emit(channel, { sender: ipcRenderer }, structuredClone(payload))
  }
  isDestroyed(): boolean {
    return this.destroyed
  }
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
    this.windowOpenHandler = handler
  }
}

export class FakeBrowserWindow extends FakeEmitter {
  static instances: FakeBrowserWindow[] = []
  readonly webContents = new FakeWebContents()
  readonly calls: string[] = []
  visible = false
  minimized = false
  maximized = false
  destroyed = false
  loadedUrl: string | null = null
  alwaysOnTop: boolean
  /** Every setAlwaysOnTop call, as the OS would see it: [flag, level]. */
  readonly onTopCalls: Array<[boolean, string | undefined]> = []
  bounds: { x: number; y: number; width: number; height: number }
  constructor(readonly options: Record<string, unknown>) {
    super()
    const o = options as Partial<Record<'x' | 'y' | 'width' | 'height', number>>
    this.bounds = { x: o.x ?? 0, y: o.y ?? 0, width: o.width ?? 800, height: o.height ?? 600 }
    this.alwaysOnTop = options['alwaysOnTop'] === true
    FakeBrowserWindow.instances.push(this)
  }
  getBounds(): { x: number; y: number; width: number; height: number } {
    return { ...this.bounds }
  }
  setBounds(bounds: { x: number; y: number; width: number; height: number }): void {
    this.calls.push('setBounds')
    this.bounds = { ...bounds }
  }
  setAlwaysOnTop(flag: boolean, level?: string): void {
    this.onTopCalls.push([flag, level])
    this.alwaysOnTop = flag
  }
  isAlwaysOnTop(): boolean {
    return this.alwaysOnTop
  }
  setVisibleOnAllWorkspaces(visible: boolean, options?: unknown): void {
    this.calls.push(`setVisibleOnAllWorkspaces:${visible}:${JSON.stringify(options ?? {})}`)
  }
  fullScreen = false
  isFullScreen(): boolean {
    return this.fullScreen
  }
  setFullScreen(flag: boolean): void {
    this.fullScreen = flag
    this.emit(flag ? 'enter-full-screen' : 'leave-full-screen')
  }
  minimize(): void {
    this.calls.push('minimize')
    this.minimized = true
    this.emit('minimize')
  }
  show(): void {
    this.calls.push('show')
    this.visible = true
    this.emit('show')
  }
  /** Shows without taking focus (the ticker strip). */
  showInactive(): void {
    this.calls.push('showInactive')
    this.visible = true
    this.emit('show')
  }
  hide(): void {
    this.calls.push('hide')
    this.visible = false
    this.emit('hide')
  }
  focus(): void {
    this.calls.push('focus')
  }
  restore(): void {
    this.calls.push('restore')
    this.minimized = false
    this.emit('restore')
  }
  maximize(): void {
    this.maximized = true
  }
  isVisible(): boolean {
    return this.visible
  }
  isMinimized(): boolean {
    return this.minimized
  }
  isMaximized(): boolean {
    return this.maximized
  }
  isDestroyed(): boolean {
    return this.destroyed
  }
  getNormalBounds(): { x: number; y: number; width: number; height: number } {
    return { ...this.bounds }
  }
  async loadURL(url: string): Promise<void> {
    this.loadedUrl = url
    this.webContents.url = url
  }
  /** Like the user clicking the close button: 'close' can be prevented, else the window dies. */
  close(): void {
    const event = fakeEvent({})
    this.emit('close', event)
    if (event.defaultPrevented) return
    this.destroyed = true
    this.webContents.destroyed = true
    this.emit('closed')
  }
}

export class FakeSession {
  headersListener: ((details: unknown, callback: (response: unknown) => void) => void) | null = null
  permissionRequestHandler:
    ((wc: unknown, permission: string, cb: (ok: boolean) => void) => void) | null = null
  permissionCheckHandler: ((wc: unknown, permission: string, origin: string) => boolean) | null =
    null
  readonly webRequest = {
    onHeadersReceived: (
      listener: (details: unknown, callback: (response: unknown) => void) => void,
    ): void => {
      this.headersListener = listener
    },
  }
  setPermissionRequestHandler(handler: FakeSession['permissionRequestHandler']): void {
    this.permissionRequestHandler = handler
  }
  setPermissionCheckHandler(handler: FakeSession['permissionCheckHandler']): void {
    this.permissionCheckHandler = handler
  }
}

class FakeApp extends FakeEmitter {
  lock = true
  isPackaged = false
  quitCalls = 0
  loginItem: unknown = null
  requestSingleInstanceLock(): boolean {
    return this.lock
  }
  quit(): void {
    this.quitCalls++
  }
  exit(): void {}
  whenReady(): Promise<void> {
    return Promise.resolve()
  }
  getPath(): string {
    return '/nonexistent'
  }
  getAppPath(): string {
    return '/nonexistent/app'
  }
  setLoginItemSettings(settings: unknown): void {
    this.loginItem = settings
  }
}

export const fake = {
  app: new FakeApp(),
  session: new FakeSession(),
  opened: [] as string[],
  /** Folders shell.openPath was asked to show. */
  openedPaths: [] as string[],
  handlers: new Map<string, (...args: unknown[]) => unknown>(),
  exposed: [] as Array<{ key: string; api: unknown }>,
  ipcRenderer: new FakeEmitter(),
  /**
   * The page ipcRenderer belongs to. Null (the default): ipcRenderer.invoke answers with the
   * scripted `rendererReply`. Set by connectRenderer(): invoke reaches main's ipcMain handlers
   * and that window's webContents.send reaches ipcRenderer, as Electron's IPC joins them.
   */
  renderer: null as FakeWebContents | null,
  rendererInvokes: [] as Array<{ channel: string; args: unknown[] }>,
  rendererReply: null as unknown,
  appMenu: null as unknown,
  powerMonitor: new FakeEmitter(),
  /** Electron's screen: the displays, and its display-added/-removed/-metrics-changed events. */
  screen: new FakeEmitter(),
  displays: [] as Array<{ workArea: { x: number; y: number; width: number; height: number } }>,
  reset(): void {
    fake.app.listeners.clear()
    fake.app.lock = true
    fake.app.isPackaged = false
    fake.app.quitCalls = 0
    fake.app.loginItem = null
    fake.session.headersListener = null
    fake.session.permissionRequestHandler = null
    fake.session.permissionCheckHandler = null
    fake.opened.length = 0
    fake.openedPaths.length = 0
    fake.handlers.clear()
    fake.exposed.length = 0
    fake.ipcRenderer.listeners.clear()
    fake.renderer = null
    fake.rendererInvokes.length = 0
    fake.rendererReply = null
    fake.appMenu = null
    fake.powerMonitor.listeners.clear()
    fake.screen.listeners.clear()
    fake.displays.splice(0, fake.displays.length, {
      workArea: { x: 0, y: 0, width: 1920, height: 1080 },
    })
    FakeBrowserWindow.instances = []
    FakeTray.instances = []
    FakeNotification.instances = []
    FakeNotification.supported = true
  },
}

/** Joins ipcRenderer and main over this window's page, in memory (see `fake.renderer`). */
export function connectRenderer(webContents: FakeWebContents): void {
  fake.renderer = webContents
}

/**
 * ipcRenderer.invoke -> ipcMain.handle as Electron does it: arguments and the result are
 * structured-cloned, the handler sees the sending frame, a missing handler or a throwing one
 * rejects the renderer's promise with a plain Error.
 */
async function invokeMain(
  page: FakeWebContents,
  channel: string,
  args: unknown[],
): Promise<unknown> {
  const handler = fake.handlers.get(channel)
  if (!handler) throw new Error(`No handler registered for '${channel}'`)
  const event = { sender: page, senderFrame: page.destroyed ? null : { url: page.url } }
  try {
    return structuredClone(await handler(event, ...structuredClone(args)))
  } catch (error) {
    throw new Error(`Error invoking remote method '${channel}': ${String(error)}`)
  }
}

const ipcRenderer = Object.assign(fake.ipcRenderer, {
  invoke: async (channel: string, ...args: unknown[]): Promise<unknown> => {
    fake.rendererInvokes.push({ channel, args })
    if (fake.renderer) return invokeMain(fake.renderer, channel, args)
    return fake.rendererReply
  },
})

export const electronModule = {
  app: fake.app,
  BrowserWindow: FakeBrowserWindow,
  Tray: FakeTray,
  Notification: FakeNotification,
  Menu: {
    buildFromTemplate: (template: MenuTemplateItem[]) => ({ template }),
    setApplicationMenu: (menu: unknown) => {
      fake.appMenu = menu
    },
  },
  nativeImage: { createFromPath: (path: string) => ({ path }) },
  shell: {
    openExternal: async (url: string): Promise<void> => {
      fake.opened.push(url)
    },
    openPath: async (path: string): Promise<string> => {
      fake.openedPaths.push(path)
      return ''
    },
  },
  ipcMain: {
    handle: (channel: string, fn: (...args: unknown[]) => unknown) => {
      fake.handlers.set(channel, fn)
    },
    removeHandler: (channel: string) => {
      fake.handlers.delete(channel)
    },
  },
  ipcRenderer,
  contextBridge: {
    exposeInMainWorld: (key: string, api: unknown) => {
      fake.exposed.push({ key, api })
    },
  },
  session: { defaultSession: fake.session },
  screen: Object.assign(fake.screen, { getAllDisplays: () => fake.displays }),
  powerMonitor: fake.powerMonitor,
  safeStorage: {
    isEncryptionAvailable: () => false,
    getSelectedStorageBackend: () => 'basic_text',
    encryptString: (s: string) => Buffer.from(s),
    decryptString: (b: Buffer) => b.toString(),
  },
}
