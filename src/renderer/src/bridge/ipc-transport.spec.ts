import { describe, expect, it } from 'vitest'
import type { BridgeEvent } from '../../../shared/bridge'
import { createTickdeskApi, type IpcRendererPort } from '../../../preload/tickdesk-api'
import { EVENT_CHANNEL } from '../../../preload/channels'
import { acrossContextBridge } from '../../../preload/testing/context-bridge'
import { BridgeError } from './bridge-error'
import { electronBridge as createElectronApi } from './index'

/** main's side of the IPC, scripted by the test: replies and pushes events. */
function scriptedMain(reply: (payload: unknown) => unknown): {
  ipc: IpcRendererPort
  push(event: unknown): void
} {
  const listeners = new Set<(event: unknown, ...args: unknown[]) => void>()
  return {
    ipc: {
      invoke: async (_channel, payload) => reply(payload),
      on: (channel, l) => channel === EVENT_CHANNEL && listeners.add(l),
      removeListener: (_channel, l) => listeners.delete(l),
    },
    push: (event) => {
      for (const l of listeners) l({ sender: 'ipcRenderer' }, event)
    },
  }
}

describe('the Electron bridge as the renderer sees it (preload through contextBridge)', () => {
  it('keeps the host error code of a failed command', async () => {
    const main = scriptedMain(() => ({
      ok: false,
      error: { code: 'MARKET_NOT_ENABLED', message: 'Your plan does not include futures' },
    }))
    const api = createElectronApi(acrossContextBridge(createTickdeskApi(main.ipc)))
    const error = await api
      .invoke('addSymbols', { id: 'w1', inputs: ['futures:ES1!'] })
      .catch((e) => e)
    expect(error).toBeInstanceOf(BridgeError)
    expect(error).toMatchObject({
      code: 'MARKET_NOT_ENABLED',
      message: 'Your plan does not include futures',
    })
  })

  it('resolves with the result parsed against the contract, and rejects one outside it', async () => {
    let result: unknown = 'w1'
    const main = scriptedMain(() => ({ ok: true, result }))
    const api = createElectronApi(acrossContextBridge(createTickdeskApi(main.ipc)))
    await expect(api.invoke('exportWatchlist', { id: 'w1', format: 'csv' })).resolves.toBe('w1')
    result = [42]
    await expect(api.invoke('exportWatchlist', { id: 'w1', format: 'csv' })).rejects.toMatchObject({
      code: 'BAD_FRAME',
    })
  })

  it('passes valid events to subscribers and drops malformed ones', () => {
    const main = scriptedMain(() => null)
    const api = createElectronApi(acrossContextBridge(createTickdeskApi(main.ipc)))
    const seen: BridgeEvent[] = []
    const off = api.subscribe((e) => seen.push(e))
    main.push({ type: 'openSymbol', key: 'fx:EURUSD' })
    main.push({ type: 'quotes', quotes: [{ last: 1 }] })
    off()
    main.push({ type: 'openSymbol', key: 'fx:USDJPY' })
    expect(seen).toEqual([{ type: 'openSymbol', key: 'fx:EURUSD' }])
  })
})
