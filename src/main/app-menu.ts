import type { MenuItemConstructorOptions } from 'electron'

/**
 * The application menu: the platform's usual roles, so copy/paste, zoom, minimise and the
 * standard shortcuts work, and View > Ticker Strip. Reload and DevTools exist only in development
 * builds. Rebuilt when the strip opens or closes, so its checkbox tells the truth.
 */
export interface AppMenuOptions {
  platform: NodeJS.Platform
  isDev: boolean
  appName: string
  helpUrl: string
  openExternal(url: string): void
  /** Shows the log folder in the file manager (Help > Open Log Folder). */
  openLogFolder?(): void
  quit(): void
  /** The ticker strip window is open (the View menu's checkbox). */
  stripOpen: boolean
  toggleStrip(): void
  /** Help > Keyboard Shortcuts: the renderer's shortcuts dialog. */
  showShortcuts?(): void
}

export function appMenuTemplate(opts: AppMenuOptions): MenuItemConstructorOptions[] {
  const mac = opts.platform === 'darwin'
  const quit: MenuItemConstructorOptions = {
    label: mac ? `Quit ${opts.appName}` : 'Quit',
    accelerator: 'CommandOrControl+Q',
    click: () => opts.quit(),
  }
  const view: MenuItemConstructorOptions[] = [
    {
      label: 'Ticker Strip',
      type: 'checkbox',
      checked: opts.stripOpen,
      accelerator: 'CommandOrControl+Shift+T',
      click: () => opts.toggleStrip(),
    },
    { type: 'separator' },
    ...(opts.isDev
      ? ([{ role: 'reload' }, { role: 'toggleDevTools' }, { type: 'separator' }] as const)
      : []),
    { role: 'resetZoom' },
    { role: 'zoomIn' },
    { role: 'zoomOut' },
    { type: 'separator' },
    { role: 'togglefullscreen' },
  ]
  return [
    ...(mac
      ? [
          {
            label: opts.appName,
            submenu: [
              { role: 'about' },
              { type: 'separator' },
              { role: 'services' },
              { type: 'separator' },
              { role: 'hide' },
              { role: 'hideOthers' },
              { role: 'unhide' },
              { type: 'separator' },
              quit,
            ],
          } satisfies MenuItemConstructorOptions,
        ]
      : [{ label: 'File', submenu: [quit] } satisfies MenuItemConstructorOptions]),
    {
      label: 'Edit',
      submenu: [
        { role: 'undo' },
        { role: 'redo' },
        { type: 'separator' },
        { role: 'cut' },
        { role: 'copy' },
        { role: 'paste' },
        { role: 'selectAll' },
      ],
    },
    { label: 'View', submenu: view },
    {
      label: 'Window',
      role: 'window',
      submenu: mac
        ? [{ role: 'minimize' }, { role: 'zoom' }, { type: 'separator' }, { role: 'front' }]
        : [{ role: 'minimize' }, { role: 'close' }],
    },
    {
      label: 'Help',
      role: 'help',
      submenu: [
        ...(opts.showShortcuts
          ? [{ label: 'Keyboard Shortcuts', click: () => opts.showShortcuts?.() }]
          : []),
        { label: `${opts.appName} on the web`, click: () => opts.openExternal(opts.helpUrl) },
        ...(opts.openLogFolder
          ? [{ label: 'Open Log Folder', click: () => opts.openLogFolder?.() }]
          : []),
      ],
    },
  ]
}
