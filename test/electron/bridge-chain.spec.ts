import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createAppService, type AppService } from '../../src/app/app-service'
import { memorySecretStore } from '../../src/app/keys/memory-secret-store'
import { INVOKE_CHANNEL } from '../../src/preload/channels'
import type { BridgeEvent, TickdeskApi } from '../../src/shared/bridge'
import { decodeQuoteFrame } from '../../src/shared/quote-frame'
import { connectRenderer, fake, FakeBrowserWindow } from '../../src/main/testing/fake-electron'
import { loadPreload, rendererBridge } from './renderer-page'
import { startDemoService } from '../../src/sim'

/**
 * Both halves of the Electron bridge, chained in memory the way VS Code tests its IPC channels:
 * the real renderer client (bridge-client.ts over ipc-transport.ts) over what contextBridge passes of the real preload
 * (src/preload/index.ts on ipcRenderer), over an in-memory ipcRenderer/ipcMain pair, to the real
 * main side (ipc-bridge.ts) and a real AppService on the embedded simulator. Only the electron
 * module is fake (fake-electron.ts); every message crosses as a structured clone, as in Electron.
 */
vi.mock(
  'electron',
  async () => (await import('../../src/main/testing/fake-electron')).electronModule,
)

const preload = await loadPreload()
const { forwardEvents, registerBridgeIpc } = await import('../../src/main/ipc-bridge')
const { isAppUrl } = await import('../../src/main/app-url')

const PAGE = 'file:///opt/tickdesk/out/renderer/index.html'
const ownPage = (url: string): boolean =>
  isAppUrl(url, { kind: 'file', path: '/opt/tickdesk/out/renderer/index.html' })

let app: AppService
let dataDir: string
let win: FakeBrowserWindow
let renderer: TickdeskApi
const stops: Array<() => void> = []

beforeEach(async () => {
  fake.reset()
  dataDir = mkdtempSync(join(tmpdir(), 'tickdesk-chain-'))
  app = await createAppService({
    dataDir,
    env: {},
    secretStore: memorySecretStore(),
    demo: () => startDemoService({ seed: 5, tickIntervalMs: 50 }),
  })
  win = new FakeBrowserWindow({})
  await win.loadURL(PAGE)
  win.show()
  stops.push(
    registerBridgeIpc(app, ownPage),
    forwardEvents(app, () => [win] as never),
  )
  connectRenderer(win.webContents)
  renderer = rendererBridge(preload)
})

afterEach(async () => {
  for (const stop of stops.splice(0)) stop()
  await app.close()
  rmSync(dataDir, { recursive: true, force: true })
})

describe('renderer -> preload -> ipc -> main -> app service, and back', () => {
  it('returns the real snapshot, parsed against the contract on the renderer side', async () => {
    const snapshot = await renderer.invoke('getSnapshot', {})
    expect(snapshot.status.demo).toBe(true)
    expect(snapshot.watchlists.map((w) => w.name)).toEqual(['Crypto', 'Macro'])
    expect(snapshot.keyInfo).toEqual({
      hasKey: false,
      masked: '',
      storage: 'none',
      warning: null,
      warningDetail: null,
      forHost: null,
      withheld: null,
    })
  })

  it('runs a command in the app and carries its event back to the renderer', async () => {
    const events: BridgeEvent[] = []
    const off = renderer.subscribe((e) => events.push(e))
    const created = await renderer.invoke('createWatchlist', { name: 'Metals' })
    expect(app.lists.watchlists.map((w) => w.id)).toContain(created.id)
    await renderer.invoke('addSymbols', { id: created.id, inputs: ['commodity:XAUUSD'] })
    const last = events.filter((e) => e.type === 'watchlists').at(-1)
    expect(last).toMatchObject({
      type: 'watchlists',
      watchlists: expect.arrayContaining([
        { id: created.id, name: 'Metals', symbols: ['commodity:XAUUSD'] },
      ]),
    })
    off()
  })

  it('streams live quote batches from the simulator to the renderer', async () => {
    const prices: number[] = []
    const off = renderer.subscribe((e) => {
      if (e.type !== 'quotes') return
      for (const q of decodeQuoteFrame(e.frame))
        if (q.key === 'crypto:BTCUSDT' && typeof q.last === 'number') prices.push(q.last)
    })
    await expect.poll(() => prices.length, { timeout: 10_000 }).toBeGreaterThan(1)
    off()
    const count = prices.length
    await new Promise((r) => setTimeout(r, 200))
    expect(prices.length).toBe(count)
  })

  it('sends a hidden or minimised window no quote frames, then every quote at once when it shows', async () => {
    const frames: Array<{ keys: string[]; at: number }> = []
    const others: string[] = []
    const off = renderer.subscribe((e) => {
      if (e.type === 'quotes') frames.push({ keys: e.frame.keys, at: Date.now() })
      else others.push(e.type)
    })
    await expect.poll(() => frames.length, { timeout: 10_000 }).toBeGreaterThan(1)

    for (const away of ['hide', 'minimize'] as const) {
      win[away]()
      frames.length = 0
      others.length = 0
      // Ticks keep coming every 50 ms and the app keeps its state: the window hears of none of it,
      // though a settings change still reaches it.
      await renderer.invoke('updateSettings', { sounds: false })
      const ticksBefore = app
        .snapshot()
        .quotes.map((q) => q.ts)
        .join()
      await new Promise((r) => setTimeout(r, 400))
      expect(
        app
          .snapshot()
          .quotes.map((q) => q.ts)
          .join(),
      ).not.toBe(ticksBefore)
      expect(frames).toEqual([])
      expect(others).toContain('settings')

      // Every symbol the app holds a quote for as the window shows (read then, not at the start:
      // on a loaded machine the demo prices its last symbols after the first frames).
      const watched = app.snapshot().quotes.map((q) => q.key)
      if (away === 'hide') win.show()
      else win.restore()
      await expect.poll(() => frames.length, { timeout: 5_000 }).toBeGreaterThan(0)
      // The first frame after showing is the catch-up: every watched symbol, not a delta.
      const caughtUp = new Set(frames[0]?.keys)
      expect(watched.filter((k) => !caughtUp.has(k))).toEqual([])
    }
    off()
  })

  it('keeps the error code and message across the chain: NOT_FOUND, and INVALID_INPUT as the app words it', async () => {
    await expect(
      renderer.invoke('exportWatchlist', { id: 'nope', format: 'json' }),
    ).rejects.toMatchObject({
      name: 'BridgeError',
      code: 'NOT_FOUND',
    })
    // A name the contract refuses: checked once, by the app, with the message any host gives.
    const direct = await app.invoke('createWatchlist', { name: '' })
    expect(direct.ok).toBe(false)
    await expect(renderer.invoke('createWatchlist', { name: '' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: direct.ok ? '' : direct.error.message,
    })
    const unknown = await app.invoke('noSuchCommand', {})
    await expect(renderer.invoke('noSuchCommand' as 'getSnapshot', {})).rejects.toMatchObject({
      code: 'BAD_COMMAND',
    })
    expect(unknown).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } })
    expect(app.lists.watchlists.map((w) => w.name)).toEqual(['Crypto', 'Macro'])
  })

  it('refuses a page that navigated away from the app: FORBIDDEN, and the app never sees it', async () => {
    await win.loadURL('https://evil.example/')
    await expect(renderer.invoke('createWatchlist', { name: 'Stolen' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    })
    expect(app.lists.watchlists.map((w) => w.name)).toEqual(['Crypto', 'Macro'])
  })

  it('says BRIDGE_DOWN when main is not answering (handler gone)', async () => {
    fake.handlers.delete(INVOKE_CHANNEL)
    await expect(renderer.invoke('getSnapshot', {})).rejects.toMatchObject({ code: 'BRIDGE_DOWN' })
  })
})
