import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

/**
 * Where the renderer is loaded from, and the one test of "is this URL our own app?" that every
 * guard uses (IPC sender frames, navigation, permissions).
 * Packaged or built: file://…/out/renderer/index.html. Development: electron-vite's dev server,
 * passed in ELECTRON_RENDERER_URL, honoured only when the app is not packaged.
 */
export type RendererLocation = { kind: 'file'; path: string } | { kind: 'dev'; url: string }

export function rendererLocation(opts: {
  /** Folder of the built main bundle (out/main). */
  mainDir: string
  isPackaged: boolean
  env: NodeJS.ProcessEnv
}): RendererLocation {
  const devUrl = opts.env['ELECTRON_RENDERER_URL']
  if (!opts.isPackaged && devUrl && isLoopbackHttpUrl(devUrl)) return { kind: 'dev', url: devUrl }
  return { kind: 'file', path: join(opts.mainDir, '..', 'renderer', 'index.html') }
}

function isLoopbackHttpUrl(raw: string): boolean {
  const url = safeUrl(raw)
  return (
    url !== null &&
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)
  )
}

function safeUrl(raw: string): URL | null {
  try {
    return new URL(raw)
  } catch {
    return null
  }
}

/** The URL BrowserWindow.loadURL gets. */
export function rendererUrl(location: RendererLocation): string {
  return location.kind === 'dev' ? location.url : pathToFileURL(location.path).href
}

/** The same page in ticker-strip mode (the renderer reads ?view=strip). */
export function stripUrl(location: RendererLocation): string {
  const url = new URL(rendererUrl(location))
  url.searchParams.set('view', 'strip')
  return url.href
}

/**
 * True only for the app's own page: the exact index.html file (any query or hash), or any path on
 * the dev server's origin. Everything else — other files, other origins, about:blank, data: — is foreign.
 */
export function isAppUrl(raw: string, location: RendererLocation): boolean {
  const url = safeUrl(raw)
  if (url === null) return false
  if (location.kind === 'dev') {
    const dev = safeUrl(location.url)
    return dev !== null && url.origin === dev.origin
  }
  if (url.protocol !== 'file:' || (url.host !== '' && url.host !== 'localhost')) return false
  try {
    return fileURLToPath(new URL(url.pathname, 'file:///')) === location.path
  } catch {
    return false
  }
}
