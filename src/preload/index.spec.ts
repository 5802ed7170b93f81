import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { TickdeskApi } from '../shared/bridge'
import { fake } from '../main/testing/fake-electron'
import { EVENT_CHANNEL, INVOKE_CHANNEL } from './channels'

vi.mock('electron', async () => (await import('../main/testing/fake-electron')).electronModule)

fake.reset()
await import('./index')
// Captured once: loading the preload is what calls exposeInMainWorld.
const exposedCalls = [...fake.exposed] as Array<{ key: string; api: TickdeskApi }>
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

  it('sends invoke as { command, params } on tickdesk:invoke and unwraps the result', async () => {
    fake.rendererReply = { ok: true, result: { id: 'w1', name: 'Crypto', symbols: [] } }
    const result = await api.invoke('createWatchlist', { name: 'Crypto' })
    expect(result).toEqual({ id: 'w1', name: 'Crypto', symbols: [] })
    expect(fake.rendererInvokes).toEqual([
      {
        channel: INVOKE_CHANNEL,
        args: [{ command: 'createWatchlist', params: { name: 'Crypto' } }],
      },
    ])
  })

  it('rebuilds a failed outcome as an Error carrying the code', async () => {
    fake.rendererReply = { ok: false, error: { code: 'INVALID_INPUT', message: 'name: too long' } }
    const error = await api.invoke('createWatchlist', { name: 'x' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(Error)
    expect(error).toMatchObject({ code: 'INVALID_INPUT', message: 'name: too long' })
  })

  it('treats a malformed reply as BAD_RESPONSE', async () => {
    fake.rendererReply = { ok: false, error: 'nope' }
    await expect(api.invoke('getSnapshot', {})).rejects.toMatchObject({ code: 'BAD_RESPONSE' })
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
