import type { PreloadApi } from '../../../shared/bridge'
import type { BridgeTransport } from './bridge-client'

/**
 * The Electron transport: window.tickdesk, which the preload builds over IPC. The preload
 * resolves every command with its CommandOutcome as plain data (a rejected Error would lose its
 * code crossing contextBridge, electron#24427); the client (bridge-client.ts) parses it. IPC
 * cannot drop, so there is no connection to watch; a rejected call means the host is not there.
 */
export function ipcTransport(port: PreloadApi): BridgeTransport {
  return {
    host: 'electron',
    request: (name, params) => ({ outcome: port.invoke(name, params), cancel: () => undefined }),
    subscribe: (listener) => port.subscribe(listener),
  }
}
