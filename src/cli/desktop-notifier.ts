import { execFile } from 'node:child_process'
import { accessSync, constants } from 'node:fs'
import { delimiter, join } from 'node:path'
import type { AlertTarget } from '../app/alerts/alert-loop'
import { notificationArgs } from './notification-command'
import { sinceWords } from '../shared/alerts/alert-owner'
import { symbolOfKey } from '../shared/markets/market'
import { systemClock } from '../core/clock'

/**
 * Desktop notifications from a process with no window (`tickdesk alerts run`): notify-send on
 * Linux (libnotify), osascript on macOS. Where neither exists (a headless server) there is no
 * desktop target at all, so no fire is owed to one. A notification the desktop drops (Do Not
 * Disturb) is still in the history and on stdout.
 */
export function desktopNotifier(env: NodeJS.ProcessEnv): AlertTarget | null {
  const tool = process.platform === 'darwin' ? onPath('osascript', env) : onPath('notify-send', env)
  if (tool === null) return null
  return {
    name: 'desktop',
    deliver: (alert) =>
      new Promise<void>((resolve, reject) => {
        // Quiet hours: taken (so not owed again), shown on stdout and in the history only.
        if (alert.quiet === true) return resolve()
        const title = `Tickdesk: ${symbolOfKey(alert.key)}`
        // A replay (killed between showing it and recording it): the trader may have seen it.
        const again = alert.replayed === true ? '(again) ' : ''
        const late =
          alert.late === true ? `Late (fired ${sinceWords(alert.at, systemClock.now())}): ` : ''
        const body = `${late}${again}${alert.whileAway ? `While you were away: ${alert.message}` : alert.message}`
        const args = notificationArgs(process.platform, title, body)
        execFile(tool, args, { timeout: 5_000 }, (error) => (error ? reject(error) : resolve()))
      }),
  }
}

function onPath(name: string, env: NodeJS.ProcessEnv): string | null {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue
    const path = join(dir, name)
    try {
      accessSync(path, constants.X_OK)
      return path
    } catch {
      // not here
    }
  }
  return null
}
