import { beforeEach, describe, expect, it, vi } from 'vitest'
import { EVENT_CHANNEL, INVOKE_CHANNEL } from '../preload/channels'
import { fake, FakeBrowserWindow } from './testing/fake-electron'
import { MemoryApp } from './testing/memory-app'

vi.mock('electron', async () => (await import('./testing/fake-electron')).electronModule)

const { forwardEvents, registerBridgeIpc } = await import('./ipc-bridge')
const { isAppUrl } = await import('./app-url')

const APP_URL = 'file:///opt/tickdesk/out/renderer/index.html'
const own = (url: string): boolean =>
  isAppUrl(url, { kind: 'file', path: '/opt/tickdesk/out/renderer/index.html' })
const fromFrame = (url: string | null) => ({ senderFrame: url === null ? null : { url } })

let app: MemoryApp
beforeEach(() => {
  fake.reset()
  app = new MemoryApp()
})

function call(event: unknown, payload: unknown): Promise<unknown> {
  const handler = fake.handlers.get(INVOKE_CHANNEL)
  if (!handler) throw new Error('no handler registered')
  return Promise.resolve(handler(event, payload))
}

describe('tickdesk:invoke', () => {
  it('passes a valid command from the app window to the app and returns its outcome', async () => {
    registerBridgeIpc(app, own)
    const outcome = await call(fromFrame(APP_URL), {
      command: 'updateSettings',
      params: { sounds: false },
    })
    expect(outcome).toMatchObject({ ok: true, result: { sounds: false } })
    expect(app.received).toEqual([{ command: 'updateSettings', params: { sounds: false } }])
    expect(app.settings.sounds).toBe(false)
  })

  it('rejects a call from a foreign frame without reaching the app', async () => {
    registerBridgeIpc(app, own)
    for (const event of [
      fromFrame('https://evil.example/'),
      fromFrame('file:///tmp/x.html'),
      fromFrame(null),
      {},
    ]) {
      const outcome = await call(event, { command: 'updateSettings', params: { sounds: false } })
      expect(outcome).toEqual({
        ok: false,
        error: { code: 'FORBIDDEN', message: expect.any(String) },
      })
    }
    expect(app.received).toEqual([])
    expect(app.settings.sounds).toBe(true)
  })

  it('rejects an invalid payload with an error outcome and leaves state unchanged', async () => {
    registerBridgeIpc(app, own)
    const bad: unknown[] = [
      null,
      'updateSettings',
      { command: 'updateSettings', params: { sounds: 'off' } },
      {
        command: 'updateSettings',
        params: { pinned: Array.from({ length: 11 }, (_, i) => `crypto:S${i}`) },
      },
      { command: 'setApiKey', params: { apiKey: 'short' } },
      { command: 'eval', params: {} },
      { command: 'constructor', params: {} },
    ]
    for (const payload of bad) {
      const outcome = (await call(fromFrame(APP_URL), payload)) as {
        ok: boolean
        error?: { code: string }
      }
      expect(outcome.ok).toBe(false)
      expect(outcome.error?.code).toBe('INVALID_INPUT')
    }
    expect(app.received).toEqual([])
    expect(app.settings.sounds).toBe(true)
    expect(app.settings.pinned).toEqual([])
  })

  it('turns an app that throws into an error outcome instead of a lost rejection', async () => {
    registerBridgeIpc(
      {
        invoke: async () => {
          throw new TypeError('boom')
        },
      },
      own,
    )
    expect(await call(fromFrame(APP_URL), { command: 'getSnapshot', params: {} })).toEqual({
      ok: false,
      error: { code: 'INTERNAL', message: 'getSnapshot failed' },
    })
  })

  it('removes its handler when disposed', () => {
    const dispose = registerBridgeIpc(app, own)
    dispose()
    expect(fake.handlers.has(INVOKE_CHANNEL)).toBe(false)
  })
})

describe('tickdesk:event', () => {
  it('forwards app events to every window (main and strip) and skips a destroyed one', () => {
    const win = new FakeBrowserWindow({})
    const strip = new FakeBrowserWindow({})
    let current: FakeBrowserWindow | null = win
    forwardEvents(app, () => [current, strip] as never)
    app.emit({ type: 'openSymbol', key: 'crypto:BTCUSDT' })
    expect(win.webContents.sent).toEqual([
      { channel: EVENT_CHANNEL, payload: { type: 'openSymbol', key: 'crypto:BTCUSDT' } },
    ])
    win.close()
    expect(() => app.emit({ type: 'openSymbol', key: 'crypto:ETHUSDT' })).not.toThrow()
    current = null
    app.emit({ type: 'openSymbol', key: 'crypto:ETHUSDT' })
    expect(win.webContents.sent).toHaveLength(1)
    expect(strip.webContents.sent).toHaveLength(3)
  })
})
