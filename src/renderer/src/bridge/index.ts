import type { PreloadApi, TickdeskApi } from '../../../shared/bridge'
import { createBridgeClient, type BridgeClientOptions } from './bridge-client'
import type { ConnectionState } from './bridge-connection'
import { ipcTransport } from './ipc-transport'
import { bridgeUrl, socketTransport, type BridgeSocket } from './socket-transport'

/**
 * The one bridge the renderer uses (bridge-client.ts), over Electron's preload (window.tickdesk)
 * or, in the browser host, over its session-guarded WebSocket.
 */
declare global {
  interface Window {
    /** Set by the Electron preload only; the browser host leaves it undefined. */
    tickdesk?: PreloadApi
  }
}

export interface HostConnection {
  /** The bridge transport's health; Electron IPC cannot drop, so it has none. */
  onConnection(listener: (state: ConnectionState, reconnected: boolean) => void): () => void
}

export interface Bridge {
  api: TickdeskApi
  connection: HostConnection | null
}

/** The bridge over Electron's preload. */
export function electronBridge(port: PreloadApi, options: BridgeClientOptions = {}): TickdeskApi {
  return createBridgeClient(ipcTransport(port), options)
}

export function openBridge(): Bridge {
  if (window.tickdesk) return { api: electronBridge(window.tickdesk), connection: null }
  const socket = socketTransport({
    url: bridgeUrl(window.location),
    createSocket: (u) => new WebSocket(u) as unknown as BridgeSocket,
  })
  return { api: createBridgeClient(socket), connection: socket }
}

export type { ConnectionState }
