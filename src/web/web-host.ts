import { randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { WebSocketServer } from 'ws'
import type { AppHostApi } from '../app/host-api'
import { CONTENT_SECURITY_POLICY } from '../shared/content-security-policy'
import { attachBridgeSocket } from './bridge-socket'
import {
  tokenCookie,
  hostAllowed,
  originAllowed,
  requestToken,
  tokenAllowed,
  tokensEqual,
  withoutToken,
} from './request-guard'
import { readStaticFile } from './static-files'

/** Where the browser host serves the ticker strip, under the same token rules as the app. */
export const STRIP_PATH = '/strip'

export interface WebHostOptions {
  app: AppHostApi
  /** Folder of the built renderer (out/renderer). */
  rendererDir: string
  /** 0 picks a free port. */
  port?: number
  /** Fixed token for tests; a fresh random one per launch otherwise. */
  token?: string
}

export interface WebHost {
  readonly url: string
  readonly port: number
  readonly token: string
  close(): Promise<void>
}

function deny(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'cache-control': 'no-store',
  })
  res.end(text)
}

/** The browser host: the built renderer and the bridge on 127.0.0.1 only, behind a per-launch token. */
export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const token = options.token ?? randomBytes(24).toString('base64url')
  const server = createServer()
  const bridge = new WebSocketServer({ noServer: true, maxPayload: 2 * 1024 * 1024 })
  let port = 0

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (!hostAllowed(req, port)) return deny(res, 403, 'Forbidden host')
    if (!originAllowed(req, port, false)) return deny(res, 403, 'Forbidden origin')
    if (!tokenAllowed(req, token, port))
      return deny(res, 403, 'Forbidden: open the address Tickdesk printed, with its token')
    if (req.method !== 'GET' && req.method !== 'HEAD') return deny(res, 405, 'Method not allowed')
    const { fromQuery } = requestToken(req, port)
    if (fromQuery !== null && tokensEqual(fromQuery, token)) {
      // The tokened address did its job once the cookie is set: on to the same page without it.
      res.writeHead(303, {
        location: withoutToken(req.url ?? '/'),
        'set-cookie': `${tokenCookie(port)}=${token}; HttpOnly; SameSite=Strict; Path=/`,
        'referrer-policy': 'no-referrer',
        'cache-control': 'no-store',
      })
      res.end()
      return
    }
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname
    // The ticker strip is the same page in strip mode (the renderer reads its path).
    const file = await readStaticFile(options.rendererDir, path === STRIP_PATH ? '/' : path)
    if (!file) return deny(res, 404, 'Not found')
    const headers: Record<string, string> = {
      'content-type': file.contentType,
      'content-security-policy': CONTENT_SECURITY_POLICY,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
    }
    res.writeHead(200, headers)
    res.end(req.method === 'HEAD' ? undefined : file.body)
  }

  server.on('request', (req, res) => {
    handle(req, res).catch(() => deny(res, 500, 'Internal error'))
  })

  server.on('upgrade', (req, socket, head) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname
    const ok =
      path === '/bridge' &&
      hostAllowed(req, port) &&
      originAllowed(req, port, true) &&
      tokenAllowed(req, token, port)
    if (!ok) {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n')
      return
    }
    bridge.handleUpgrade(req, socket, head, (ws) => attachBridgeSocket(ws, options.app))
  })

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve())
  })
  port = (server.address() as AddressInfo).port

  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    close: async () => {
      for (const client of bridge.clients) client.terminate()
      bridge.close()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
