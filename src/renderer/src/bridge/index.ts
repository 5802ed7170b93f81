import type { TickdeskApi } from '../../../shared/bridge'
import { createWebApi, type ConnectionState } from './web-api'

/**
 * The one bridge the renderer uses: Electron's preload puts it on window.tickdesk; in the browser
 * host the page builds the same API over the token-guarded WebSocket.
 */
declare global {
  interface Window {
    tickdesk?: TickdeskApi
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
  if (window.tickdesk) return { api: window.tickdesk, connection: null }
  const web = createWebApi()
  return { api: web, connection: web }
}

export type { ConnectionState }
