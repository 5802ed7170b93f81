import { app } from 'electron'

/**
 * The Electron host's way out, and the one owner of "quitting". Every part of the host hands it
 * its stop function; on quit they run (in the order given), then the service is closed within a bound,
 * then the app exits.
 *   running --quit() (tray, menu), Cmd+Q or the OS (before-quit)--> quitting
 *   quitting --will-quit--> stops run, close() awaited (errors go to onError), exit
 *   running --every window closed for real, not macOS--> quit()
 * Tests: shutdown.spec.ts; test/electron/electron-host.spec.ts runs it whole.
 */
export interface Shutdown {
  /** True from the first quit on: windows close for real instead of hiding to the tray. */
  readonly quitting: boolean
  quit(): void
  /** Runs `stop` on the way out. */
  add(stop: () => void): void
}

export function installShutdown(opts: {
  platform: NodeJS.Platform
  /** Closes the service, the log last; awaited once the parts are stopped. */
  close(): Promise<void>
  onError(error: unknown): void
}): Shutdown {
  const stops: Array<() => void> = []
  let quitting = false
  let closed = false
  const quit = (): void => {
    quitting = true
    app.quit()
  }
  app.on('before-quit', () => {
    quitting = true
  })
  app.on('window-all-closed', () => {
    // Closed for real (not hidden to the tray): on macOS apps stay in the dock by convention.
    if (opts.platform !== 'darwin') quit()
  })
  app.on('will-quit', (event) => {
    if (closed) return
    event.preventDefault()
    for (const stop of stops.splice(0)) stop()
    void opts
      .close()
      .catch((error: unknown) => opts.onError(error))
      .finally(() => {
        closed = true
        app.quit()
      })
  })
  return {
    get quitting() {
      return quitting
    },
    quit,
    add: (stop) => void stops.push(stop),
  }
}
