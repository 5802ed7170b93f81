import type { Logger, LogLevel } from '../../core/log'
import { SnapshotSchema, type BridgeEvent, type Notice } from '../../shared/bridge'
import type { AppHostApi } from '../host-api'

/**
 * What a helper reading the log needs from the app's own events: feed state changes (not every
 * budget tick), each notice once, fired alerts and where the key is kept (never the key). Hosts
 * call this once after creating the service; what happened while loading (a corrupt file, no
 * keychain) is read from the snapshot. Returns the unsubscribe.
 */
const StartSchema = SnapshotSchema.pick({
  status: true,
  notices: true,
  settings: true,
  keyInfo: true,
})

const NOTICE_LEVEL: Record<Notice['level'], LogLevel> = {
  info: 'info',
  warning: 'warn',
  error: 'error',
}

export function logAppActivity(
  app: Pick<AppHostApi, 'subscribe' | 'invoke'>,
  logger: Logger,
): () => void {
  let feed = ''
  let storage = ''
  const logged = new Set<string>()
  const record = (event: BridgeEvent): void => {
    switch (event.type) {
      case 'status': {
        const { state, code, message, demo, plan } = event.status
        if (`${state}/${code}` === feed) return
        feed = `${state}/${code}`
        const level = state === 'offline' || state === 'stopped' ? 'warn' : 'info'
        logger.log(level, 'feed status', { state, code, detail: message, demo, plan })
        return
      }
      case 'notices':
        for (const n of event.notices) {
          if (logged.has(n.id)) continue
          logged.add(n.id)
          logger.log(NOTICE_LEVEL[n.level], 'notice', { code: n.code, detail: n.message })
        }
        return
      case 'alertFired':
        logger.log('info', 'alert fired', {
          key: event.alert.key,
          detail: event.alert.message,
          whileAway: event.alert.whileAway,
        })
        return
      case 'settings':
        if (event.keyInfo.storage === storage) return
        storage = event.keyInfo.storage
        logger.log('info', 'key storage', {
          storage,
          warning: event.keyInfo.warningDetail ?? event.keyInfo.warning,
        })
        return
      default:
        return
    }
  }
  const unsubscribe = app.subscribe(record)
  void app.invoke('getSnapshot', {}).then(
    (outcome) => {
      const start = outcome.ok ? StartSchema.safeParse(outcome.result) : null
      if (!start?.success) return
      const { status, notices, settings, keyInfo } = start.data
      record({ type: 'settings', settings, keyInfo })
      record({ type: 'status', status })
      record({ type: 'notices', notices })
    },
    () => undefined,
  )
  return unsubscribe
}
