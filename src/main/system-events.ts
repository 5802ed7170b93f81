import { app, powerMonitor } from 'electron'
import type { AppHostApi } from '../app/host-api'

/**
 * OS signals the engine must hear: after sleep the socket is likely dead and quotes are stale,
 * so the app checks health at once instead of waiting for a heartbeat to time out.
 */
export function watchSystemResume(service: Pick<AppHostApi, 'notifyResume'>): () => void {
  const onResume = (): void => service.notifyResume()
  powerMonitor.on('resume', onResume)
  powerMonitor.on('unlock-screen', onResume)
  return () => {
    powerMonitor.off('resume', onResume)
    powerMonitor.off('unlock-screen', onResume)
  }
}

/** Login items exist on macOS and Windows only; Linux autostart is the desktop's business. */
export function applyLaunchAtLogin(enabled: boolean, platform: NodeJS.Platform): boolean {
  if (platform !== 'darwin' && platform !== 'win32') return false
  app.setLoginItemSettings({ openAtLogin: enabled })
  return true
}
