import { app, powerMonitor } from 'electron'
import type { AppHostApi } from '../app/host-api'
import { systemClock, type Clock } from '../core/clock'

/**
 * OS signals the engine must hear: after sleep the socket is likely dead and quotes are stale,
 * so the app checks health at once instead of waiting for a heartbeat to time out.
 */
export function watchSystemResume(
  service: Pick<AppHostApi, 'notifyResume'>,
  clock: Clock = systemClock,
): () => void {
  // The OS says when it went to sleep: alerts that fire on waking say "while you were away"
  // from then (an unlock without a sleep is no gap).
  let suspendedAt: number | null = null
  const onSuspend = (): void => void (suspendedAt = clock.now())
  const onResume = (): void => {
    const gapMs = suspendedAt === null ? 0 : Math.max(0, clock.now() - suspendedAt)
    suspendedAt = null
    service.notifyResume(gapMs)
  }
  const onUnlock = (): void => service.notifyResume(0)
  powerMonitor.on('suspend', onSuspend)
  powerMonitor.on('resume', onResume)
  powerMonitor.on('unlock-screen', onUnlock)
  return () => {
    powerMonitor.off('suspend', onSuspend)
    powerMonitor.off('resume', onResume)
    powerMonitor.off('unlock-screen', onUnlock)
  }
}

/** Login items exist on macOS and Windows only; Linux autostart is the desktop's business. */
export function applyLaunchAtLogin(enabled: boolean, platform: NodeJS.Platform): boolean {
  if (platform !== 'darwin' && platform !== 'win32') return false
  app.setLoginItemSettings({ openAtLogin: enabled })
  return true
}
