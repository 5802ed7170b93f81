import { app } from 'electron'

/**
 * One Tickdesk per user: a second launch would open a second WebSocket to the service (the plan
 * caps connections, spec: Limits) and race the first over the data files. The second process
 * quits at once; the first brings its window forward.
 * Returns false when this process is the second one and must not start anything.
 */
export function claimSingleInstance(reveal: () => void): boolean {
  if (!app.requestSingleInstanceLock()) {
    app.quit()
    return false
  }
  app.on('second-instance', () => reveal())
  return true
}
