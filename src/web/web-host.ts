import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { WebSocketServer } from 'ws'
import type { AppHostApi } from '../app/host-api'
import type { CachedDesk } from '../app/watchlists/cached-desk'
import { systemClock, type Clock } from '../core/clock'
import { CONTENT_SECURITY_POLICY } from '../shared/security/content-security-policy'
import { attachBridgeSocket } from './bridge-socket'
import { LaunchCodes } from './launch-codes'
import {
  hostAllowed,
  originAllowed,
  requestCode,
  requestPath,
  requestSession,
  sessionSetCookie,
  withoutCode,
} from './request-guard'
import { readStaticFile, type StaticFile } from './static-files'
import { cachedDeskHtml, withCachedDesk } from './cached-desk-html'
import { readMainPage, type MainPage } from './main-page'

const HTML = 'text/html; charset=utf-8'

/** Where the browser host serves the ticker strip, under the same rules as the app. */
export const STRIP_PATH = '/strip'

export interface WebHostOptions {
  /**
   * The app service, or its start still under way: the host listens and serves the page at once,
   * and a bridge socket waits until the service has started (answered 503 if it cannot start).
   */
  app: AppHostApi | Promise<AppHostApi>
  /**
   * While the service starts: the cached picture its start read (hosted-app.ts, beginHostedApp),
   * drawn into the page instead of waiting for the whole start. Without it the page waits.
   */
  cachedDesk?: Promise<CachedDesk | null>
  /** Folder of the built renderer (out/renderer). */
  rendererDir: string
  /** 0 picks a free port. */
  port?: number
  /** How old a launch code is (they expire unused after a minute); tests pass a FakeClock. */
  clock?: Clock
}

export interface WebHost {
  readonly port: number
  /**
   * A fresh launch address: the app's address with a one-time code, good for one visit within
   * a minute (launch-codes.ts). Print it or hand it to a browser; never put it on a command line.
   */
  launchUrl(path?: string): string
  close(): Promise<void>
}

function deny(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'cache-control': 'no-store',
  })
  res.end(text)
}

const SPENT =
  'Forbidden: this address worked once, within a minute of being made. Ask Tickdesk for a new one (press Enter in the terminal where it runs, or start it again).'

/** The browser host: the built renderer and the bridge on 127.0.0.1 only, behind a session. */
export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const gate = new BrowserHostGate(options)
  await gate.listen(options.port ?? 0)
  return {
    port: gate.port,
    launchUrl: (path = '/') => gate.launchUrl(path),
    close: () => gate.close(),
  }
}

const UNAVAILABLE =
  'HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n'

/** The server, its launch codes and its bridge; `port` is known once it listens. */
class BrowserHostGate {
  port = 0
  /** The app service once it has started; until then a bridge socket waits (`waiting`). */
  private service: AppHostApi | null
  private readonly started: Promise<AppHostApi>
  private readonly waiting = new Set<Socket>()
  private readonly codes: LaunchCodes
  private readonly clock: Clock
  private readonly server = createServer()
  private readonly bridge = new WebSocketServer({ noServer: true, maxPayload: 2 * 1024 * 1024 })
  /** Read from the start, so the first visit waits on no file (main-page.ts). */
  private readonly mainPage: Promise<MainPage | null>

  constructor(private readonly options: WebHostOptions) {
    this.clock = options.clock ?? systemClock
    this.codes = new LaunchCodes(this.clock)
    this.mainPage = readMainPage(options.rendererDir)
    this.service = options.app instanceof Promise ? null : options.app
    this.started = Promise.resolve(options.app)
    this.started.then(
      (app) => (this.service = app),
      () => {},
    )
    this.server.on('request', (req, res) => {
      this.answer(req, res).catch(() => deny(res, 500, 'Internal error'))
    })
    this.server.on('upgrade', (req, socket: Socket, head) => {
      if (!this.bridgeAllowed(req)) {
        socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n')
        return
      }
      if (this.service !== null) return this.openBridge(req, socket, head, this.service)
      this.bridgeOnceStarted(req, socket, head)
    })
  }

  /** Listening, with the main page read (the two at once). */
  async listen(port: number): Promise<void> {
    await Promise.all([
      new Promise<void>((resolve, reject) => {
        this.server.once('error', reject)
        this.server.listen(port, '127.0.0.1', () => resolve())
      }),
      this.mainPage,
    ])
    this.port = (this.server.address() as AddressInfo).port
  }

  launchUrl(path: string): string {
    return `http://127.0.0.1:${this.port}${path}?token=${this.codes.issue()}`
  }

  async close(): Promise<void> {
    for (const socket of this.waiting) socket.destroy()
    for (const client of this.bridge.clients) client.terminate()
    this.bridge.close()
    this.server.closeAllConnections()
    await new Promise<void>((resolve) => this.server.close(() => resolve()))
  }

  private openBridge(req: IncomingMessage, socket: Socket, head: Buffer, app: AppHostApi): void {
    this.bridge.handleUpgrade(req, socket, head, (ws) => attachBridgeSocket(ws, app))
  }

  /**
   * A page that asks for the bridge while the service is still starting waits for it: no request
   * meets a half-started service. One that cannot start is told so (503), and the page's client
   * retries as after any drop.
   */
  private bridgeOnceStarted(req: IncomingMessage, socket: Socket, head: Buffer): void {
    this.waiting.add(socket)
    const settle = (open: (() => void) | null): void => {
      if (!this.waiting.delete(socket) || socket.destroyed) return
      if (open === null) socket.end(UNAVAILABLE)
      else open()
    }
    this.started.then(
      (app) => settle(() => this.openBridge(req, socket, head, app)),
      () => settle(null),
    )
  }

  /** Host and Origin first; then a code is exchanged, or the session is required. */
  private async answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!hostAllowed(req, this.port)) return deny(res, 403, 'Forbidden host')
    if (!originAllowed(req, this.port, false)) return deny(res, 403, 'Forbidden origin')
    if (req.method !== 'GET' && req.method !== 'HEAD') return deny(res, 405, 'Method not allowed')
    const code = requestCode(req)
    if (code !== null) return this.exchange(req, res, code)
    if (!this.codes.admits(requestSession(req, this.port)))
      return deny(res, 403, 'Forbidden: open the address Tickdesk printed')
    await this.serveFile(req, res)
  }

  /** The code's one use: a session cookie, and on to the same page without the code. */
  private exchange(req: IncomingMessage, res: ServerResponse, code: string): void {
    const session = this.codes.exchange(code)
    if (session === null) return deny(res, 403, SPENT)
    res.writeHead(303, {
      location: withoutCode(req.url ?? '/'),
      'set-cookie': sessionSetCookie(this.port, session),
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
    })
    res.end()
  }

  private async serveFile(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = requestPath(req)
    // The main window's page carries the list's cached prices, drawn before its script runs.
    const file =
      path === '/' || path === '/index.html'
        ? await this.pageWithSnapshot()
        : path === STRIP_PATH
          ? // The ticker strip is the same page in strip mode (the renderer reads its path).
            await this.builtPage()
          : await readStaticFile(this.options.rendererDir, path)
    if (!file) return deny(res, 404, 'Not found')
    res.writeHead(200, {
      'content-type': file.contentType,
      'content-security-policy': CONTENT_SECURITY_POLICY,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
    })
    res.end(req.method === 'HEAD' ? undefined : file.body)
  }

  /** index.html as built, read once at start (main-page.ts). */
  private async builtPage(): Promise<StaticFile | null> {
    const page = await this.mainPage
    return page === null ? null : { body: page.built, contentType: HTML }
  }

  /**
   * index.html with the cached snapshot (cached-desk-html.ts), its stylesheet inline so that it
   * paints from this one response (main-page.ts); as built when there is no snapshot.
   */
  private async pageWithSnapshot(): Promise<StaticFile | null> {
    const page = await this.mainPage
    if (page === null) return null
    const snapshot = cachedDeskHtml(await this.cachedDesk(), this.clock.now())
    const body = snapshot === '' ? page.built : Buffer.from(withCachedDesk(page.styled, snapshot))
    return { body, contentType: HTML }
  }

  /** The service's picture once it runs; before, the one its start read (or the start's end). */
  private cachedDesk(): CachedDesk | null | Promise<CachedDesk | null> {
    if (this.service !== null) return this.service.cachedDesk()
    return (
      this.options.cachedDesk ??
      this.started.then(
        (app) => app.cachedDesk(),
        () => null,
      )
    )
  }

  /** The bridge: our Host and Origin, and a session; a launch code does not open it. */
  private bridgeAllowed(req: IncomingMessage): boolean {
    const path = requestPath(req)
    return (
      path === '/bridge' &&
      hostAllowed(req, this.port) &&
      originAllowed(req, this.port, true) &&
      this.codes.admits(requestSession(req, this.port))
    )
  }
}
