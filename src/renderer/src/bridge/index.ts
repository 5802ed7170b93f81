import type { PreloadApi, TickdeskApi } from '../../../shared/bridge'
import { createElectronApi } from './electron-api'
import { createWebApi, type ConnectionState } from './web-api'

/**
 * The one bridge the renderer uses: over Electron's preload (window.tickdesk, whose outcomes are
 * turned back into results and coded errors here) or, in the browser host, over the
 * token-guarded WebSocket.
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

export function openBridge(): Bridge {
  if (window.tickdesk) return { api: createElectronApi(window.tickdesk), connection: null }
  const web = createWebApi()
  return { api: web, connection: web }
}

export type { ConnectionState }
