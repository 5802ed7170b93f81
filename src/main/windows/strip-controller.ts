import type { BrowserWindow } from 'electron'
import type { AppHostApi } from '../../app/host-api'
import type { HostSettings } from '../host-settings'

/**
 * Keeps the strip window in step with settings.strip.open, the one switch the tray, the app
 * menu, the main window's button and the strip's own "Close strip" all flip (through
 * updateSettings, like any setting), so the strip also comes back after a restart.
 *   closed --open = true--> open (window created)
 *   open --open = false--> closed (window closed by us)
 *   open --window closed by the OS or the user (Alt+F4)--> closed, and open = false is saved
 *   open --app quitting--> window closes, open stays true for the next launch
 */
export interface StripControllerDeps {
  settings: Pick<HostSettings, 'value' | 'onChange'>
  app: Pick<AppHostApi, 'invoke'>
  createWindow(): BrowserWindow
  isQuitting(): boolean
}

export class StripController {
  private win: BrowserWindow | null = null
  private closingOnPurpose = false
  private readonly off: () => void

  constructor(private readonly deps: StripControllerDeps) {
    this.apply(deps.settings.value.strip.open)
    this.off = deps.settings.onChange((next, prev) => {
      if (next.strip.open !== prev.strip.open) this.apply(next.strip.open)
    })
  }

  /** The live strip window, if one is open. */
  get window(): BrowserWindow | null {
    return this.win !== null && !this.win.isDestroyed() ? this.win : null
  }

  get isOpen(): boolean {
    return this.deps.settings.value.strip.open
  }

  toggle(): void {
    void this.setOpen(!this.deps.settings.value.strip.open)
  }

  destroy(): void {
    this.off()
    this.closingOnPurpose = true
    this.window?.close()
  }

  private setOpen(open: boolean): Promise<unknown> {
    return this.deps.app.invoke('updateSettings', { strip: { open } })
  }

  private apply(open: boolean): void {
    if (open && this.window === null) {
      const win = this.deps.createWindow()
      this.win = win
      win.on('closed', () => {
        if (this.win === win) this.win = null
        const byUs = this.closingOnPurpose
        this.closingOnPurpose = false
        if (!byUs && !this.deps.isQuitting() && this.deps.settings.value.strip.open)
          void this.setOpen(false)
      })
    } else if (!open && this.window !== null) {
      this.closingOnPurpose = true
      this.window.close()
    }
  }
}
