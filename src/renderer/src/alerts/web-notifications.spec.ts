import { describe, expect, it } from 'vitest'
import type { BridgeEvent } from '../../../shared/bridge'
import {
  askNotificationPermission,
  notificationState,
  startWebNotifications,
  type NotificationApi,
} from './web-notifications'
import { firedAlert } from '../testing/fake-snapshot'

const alert = firedAlert()

/** A stand-in for the browser's Notification (jsdom has none), recording what it was given. */
function fakeNotificationApi(
  permission: NotificationPermission,
  answer: NotificationPermission = 'granted',
) {
  const shown: Array<{
    title: string
    options?: NotificationOptions
    instance: { onclick: (() => void) | null; closed: boolean }
  }> = []
  let asked = 0
  class Fake {
    static permission = permission
    static async requestPermission(): Promise<NotificationPermission> {
      asked++
      Fake.permission = answer
      return answer
    }
    onclick: (() => void) | null = null
    closed = false
    constructor(title: string, options?: NotificationOptions) {
      shown.push({ title, options, instance: this })
    }
    close(): void {
      this.closed = true
    }
  }
  return { api: Fake as unknown as NotificationApi, shown, asked: () => asked }
}

function bus() {
  const listeners = new Set<(e: BridgeEvent) => void>()
  return {
    subscribe: (l: (e: BridgeEvent) => void) => {
      listeners.add(l)
      return () => listeners.delete(l)
    },
    emit: (e: BridgeEvent) => listeners.forEach((l) => l(e)),
  }
}

describe('web notifications for fired alerts', () => {
  it('shows one notification per fired alert once permission is granted, tagged by alert id', () => {
    const fake = fakeNotificationApi('granted')
    const b = bus()
    const opened: string[] = []
    startWebNotifications(b, {
      api: fake.api,
      settings: () => ({ sounds: false }),
      onOpen: (k) => opened.push(k),
    })
    b.emit({ type: 'alertFired', alert })
    b.emit({ type: 'quotes', frame: { keys: [], masks: [], values: [] } })
    expect(fake.shown).toHaveLength(1)
    expect(fake.shown[0]).toMatchObject({
      title: 'EURUSD alert',
      options: { body: alert.message, tag: 'f1', silent: true },
    })
    fake.shown[0]?.instance.onclick?.()
    expect(opened).toEqual(['fx:EURUSD'])
    expect(fake.shown[0]?.instance.closed).toBe(true)
  })

  it('shows nothing without permission, and stops when unsubscribed', () => {
    const denied = fakeNotificationApi('denied')
    const b = bus()
    startWebNotifications(b, {
      api: denied.api,
      settings: () => ({ sounds: true }),
      onOpen: () => undefined,
    })
    b.emit({ type: 'alertFired', alert })
    expect(denied.shown).toHaveLength(0)
    const granted = fakeNotificationApi('granted')
    const stop = startWebNotifications(b, {
      api: granted.api,
      settings: () => ({ sounds: true }),
      onOpen: () => undefined,
    })
    stop()
    b.emit({ type: 'alertFired', alert })
    expect(granted.shown).toHaveLength(0)
  })

  it('asks for permission only while the browser has no answer yet', async () => {
    const fresh = fakeNotificationApi('default')
    expect(await askNotificationPermission(fresh.api)).toBe('granted')
    expect(await askNotificationPermission(fresh.api)).toBe('granted')
    expect(fresh.asked()).toBe(1)
    expect(await askNotificationPermission(fakeNotificationApi('denied').api)).toBe('denied')
    expect(notificationState(null)).toBe('unsupported')
  })
})
