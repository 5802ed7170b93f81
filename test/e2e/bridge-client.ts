import { request } from 'node:http'
import WebSocket from 'ws'
import { createBridgeClient } from '../../src/renderer/src/bridge/bridge-client'
import { BridgeError } from '../../src/renderer/src/bridge/bridge-error'
import {
  socketTransport,
  type BridgeSocket,
  type SocketTransport,
} from '../../src/renderer/src/bridge/socket-transport'
import type { BridgeEvent, CommandName, CommandOutcome } from '../../src/shared/bridge'

/**
 * The browser host's bridge as a page on its own origin uses it, from Node: the renderer's own
 * bridge client over its socket transport (the one client, src/renderer/src/bridge), after the
 * first visit a browser makes with the launch address Tickdesk printed (its one-time code traded
 * for the session cookie the upgrade then carries), with our Origin header. Follows one host: no
 * reconnect once it goes away.
 */
export interface BridgeClient {
  /** The host's answer as an outcome: its result, or its error code and message. */
  invoke(command: string, params?: unknown): Promise<CommandOutcome<unknown>>
  subscribe(listener: (event: BridgeEvent) => void): () => void
  readonly connection: SocketTransport['connection']
  /** The session cookie it rides on (`name=value`), for a browser context to share. */
  readonly cookie: string
  close(): void
}

/** Visits a launch address as a browser would; resolves with the session cookie it set. */
export function sessionCookie(launchUrl: string): Promise<string> {
  const url = new URL(launchUrl)
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path: `${url.pathname}${url.search}` },
      (res) => {
        res.resume()
        const cookie = res.headers['set-cookie']?.[0]?.split(';')[0]
        if (res.statusCode === 303 && cookie) resolve(cookie)
        else reject(new Error(`the launch address was refused (HTTP ${res.statusCode})`))
      },
    )
    req.once('error', reject)
    req.end()
  })
}

/**
 * The bridge of the host at `launchUrl`: its code traded for a session, or, when `cookie` is
 * given (a browser already made that visit), on that session.
 */
export async function connectBridge(
  launchUrl: string,
  opts: { cookie?: string } = {},
): Promise<BridgeClient> {
  const url = new URL(launchUrl)
  const cookie = opts.cookie ?? (await sessionCookie(launchUrl))
  const transport = socketTransport({
    url: `ws://${url.host}/bridge`,
    createSocket: (u) =>
      new WebSocket(u, {
        headers: { origin: `http://${url.host}`, cookie },
      }) as unknown as BridgeSocket,
    retry: false,
  })
  await new Promise<void>((resolve, reject) => {
    const off = transport.onConnection((state) => {
      off()
      if (state === 'open') resolve()
      else reject(new Error(`the bridge did not open (${state})`))
    })
  })
  const client = createBridgeClient(transport)
  return {
    invoke: (command, params = {}) =>
      client.invoke(command as CommandName, params as never).then(
        (result): CommandOutcome<unknown> => ({ ok: true, result }),
        (e: unknown): CommandOutcome<unknown> => ({
          ok: false,
          error:
            e instanceof BridgeError
              ? { code: e.code, message: e.message }
              : { code: 'INTERNAL', message: String(e) },
        }),
      ),
    subscribe: (listener) => client.subscribe(listener),
    get connection() {
      return transport.connection
    },
    cookie,
    close: () => transport.close(),
  }
}

/** The session cookie a browser page holds for the host it shows, as a Cookie header. */
export async function pageSession(page: {
  context(): { cookies(): Promise<Array<{ name: string; value: string }>> }
}): Promise<string> {
  const session = (await page.context().cookies()).find((c) =>
    c.name.startsWith('tickdesk_session_'),
  )
  if (!session) throw new Error('the page holds no Tickdesk session')
  return `${session.name}=${session.value}`
}
