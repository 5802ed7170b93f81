import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { PreloadApi } from '../shared/bridge'
import { fake } from '../main/testing/fake-electron'
import { EVENT_CHANNEL, INVOKE_CHANNEL } from './channels'

vi.mock('electron', async () => (await import('../main/testing/fake-electron')).electronModule)

fake.reset()
await import('./index')
// Captured once: loading the preload is what calls exposeInMainWorld.
const exposedCalls = [...fake.exposed] as Array<{ key: string; api: PreloadApi }>
const api = exposedCalls[0]!.api

beforeEach(() => fake.reset())

describe('preload', () => {
  it('exposes window.tickdesk with only invoke, subscribe and host', () => {
    expect(exposedCalls.map((c) => c.key)).toEqual(['tickdesk'])
    expect(Object.keys(api).sort()).toEqual(['host', 'invoke', 'subscribe'])
    expect(api.host).toBe('electron')
    const values = Object.values(api) as unknown[]
    expect(values).not.toContain(fake.ipcRenderer)
    expect(values).not.toContain(process.env)
  })

  it('sends invoke as { command, params } on tickdesk:invoke and resolves with the outcome', async () => {
    fake.rendererReply = { ok: true, result: { id: 'w1', name: 'Crypto', symbols: [] } }
    const outcome = await api.invoke('createWatchlist', { name: 'Crypto' })
    expect(outcome).toEqual({ ok: true, result: { id: 'w1', name: 'Crypto', symbols: [] } })
    expect(fake.rendererInvokes).toEqual([
      {
        channel: INVOKE_CHANNEL,
        args: [{ command: 'createWatchlist', params: { name: 'Crypto' } }],
      },
    ])
  })

  it('resolves a failed command with its code as plain data, because a rejected Error would lose the code crossing contextBridge', async () => {
    fake.rendererReply = { ok: false, error: { code: 'INVALID_INPUT', message: 'name: too long' } }
    const outcome = await api.invoke('createWatchlist', { name: 'x' })
    expect(outcome).toEqual({
      ok: false,
      error: { code: 'INVALID_INPUT', message: 'name: too long' },
    })
    // What contextBridge does to a value: a structured clone. Plain data survives it whole.
    expect(structuredClone(outcome)).toEqual(outcome)
  })

  it('answers a malformed reply with BAD_RESPONSE and an IPC failure with BRIDGE_DOWN', async () => {
    fake.rendererReply = { ok: false, error: 'nope' }
    await expect(api.invoke('getSnapshot', {})).resolves.toMatchObject({
      ok: false,
      error: { code: 'BAD_RESPONSE' },
    })
    fake.rendererReply = Promise.reject(new Error('No handler registered'))
    await expect(api.invoke('getSnapshot', {})).resolves.toMatchObject({
      ok: false,
      error: { code: 'BRIDGE_DOWN' },
    })
  })

  it('passes subscribers the event only, never the IpcRendererEvent, and unsubscribes', () => {
    const seen: unknown[][] = []
    const off = api.subscribe((...args: unknown[]) => seen.push(args))
    const ipcEvent = { sender: fake.ipcRenderer }
    fake.ipcRenderer.emit(EVENT_CHANNEL, ipcEvent, { type: 'openSymbol', key: 'crypto:BTCUSDT' })
    expect(seen).toEqual([[{ type: 'openSymbol', key: 'crypto:BTCUSDT' }]])
    off()
    fake.ipcRenderer.emit(EVENT_CHANNEL, ipcEvent, { type: 'openSymbol', key: 'crypto:ETHUSDT' })
    expect(seen).toHaveLength(1)
    expect(fake.ipcRenderer.count(EVENT_CHANNEL)).toBe(0)
  })
})
