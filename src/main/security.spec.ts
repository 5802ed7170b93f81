import { beforeEach, describe, expect, it, vi } from 'vitest'
import { FakeClock } from '../core/clock'
import type { FakeBrowserWindow } from './testing/fake-electron'
import { fake, fakeEvent, FakeWebContents } from './testing/fake-electron'

vi.mock('electron', async () => (await import('./testing/fake-electron')).electronModule)

const {
  CONTENT_SECURITY_POLICY,
  applySessionPolicy,
  externalLink,
  guardWebContents,
  openExternalLink,
} = await import('./security')
const { createMainWindow } = await import('./windows/main-window')
const { mainWindowOptions } = await import('./windows/window-options')
const { isAppUrl } = await import('./app-url')

const APP = { kind: 'file', path: '/opt/tickdesk/out/renderer/index.html' } as const
const own = (url: string): boolean => isAppUrl(url, APP)
const flush = (): Promise<void> => new Promise((r) => setImmediate(r))

beforeEach(() => fake.reset())

describe('BrowserWindow options', () => {
  const prefs = mainWindowOptions({
    preloadPath: '/opt/tickdesk/out/preload/index.cjs',
    state: { x: 10, y: 20, width: 900, height: 600, maximized: false },
  }).webPreferences

  it('isolates the page context from the preload', () => expect(prefs?.contextIsolation).toBe(true))
  it('runs the renderer in the OS sandbox', () => expect(prefs?.sandbox).toBe(true))
  it('gives the page no Node integration anywhere', () => {
    expect(prefs?.nodeIntegration).toBe(false)
    expect(prefs?.nodeIntegrationInWorker).toBe(false)
    expect(prefs?.nodeIntegrationInSubFrames).toBe(false)
  })
  it('keeps web security on and insecure content off', () => {
    expect(prefs?.webSecurity).toBe(true)
    expect(prefs?.allowRunningInsecureContent).toBe(false)
  })
  it('disables the <webview> tag', () => expect(prefs?.webviewTag).toBe(false))
  it('loads the CommonJS preload bundle', () =>
    expect(prefs?.preload).toBe('/opt/tickdesk/out/preload/index.cjs'))

  it('creates the window with those options, guarded, at the fitted position', () => {
    const win = createMainWindow({
      mainDir: '/opt/tickdesk/out/main',
      url: 'file:///opt/tickdesk/out/renderer/index.html',
      isAppUrl: own,
      remembered: { x: 5000, y: 5000, width: 800, height: 600, maximized: false },
      stateFile: '/nonexistent/window-state.json',
      clock: new FakeClock(),
      closeToTray: () => false,
      isQuitting: () => false,
    }) as unknown as FakeBrowserWindow
    const options = win.options as { x: number; y: number; webPreferences: Record<string, unknown> }
    expect(options.webPreferences['sandbox']).toBe(true)
    expect(options.webPreferences['preload']).toBe('/opt/tickdesk/out/preload/index.cjs')
    // The remembered spot is off every display: the window is centred on the primary one instead.
    expect([options.x, options.y]).toEqual([560, 240])
    expect(win.webContents.windowOpenHandler).not.toBeNull()
    expect(win.loadedUrl).toBe('file:///opt/tickdesk/out/renderer/index.html')
  })
})

describe('session policy', () => {
  it('sends the strict Content-Security-Policy on every response, replacing any other', () => {
    applySessionPolicy(fake.session as never)
    let response: { responseHeaders: Record<string, string[]> } | null = null
    fake.session.headersListener?.(
      { responseHeaders: { 'content-security-policy': ['default-src *'], 'X-Other': ['1'] } },
      (r) => {
        response = r as typeof response
      },
    )
    const headers = response!.responseHeaders
    expect(headers['Content-Security-Policy']).toEqual([CONTENT_SECURITY_POLICY])
    expect(headers['content-security-policy']).toBeUndefined()
    expect(headers['X-Other']).toEqual(['1'])
    for (const directive of [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data:",
      "connect-src 'self'",
      "object-src 'none'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
    ])
      expect(CONTENT_SECURITY_POLICY).toContain(directive)
  })

  it('denies camera, microphone and geolocation requests and allows notifications', () => {
    applySessionPolicy(fake.session as never)
    const ask = (permission: string): boolean | undefined => {
      let answer: boolean | undefined
      fake.session.permissionRequestHandler?.(null, permission, (ok) => {
        answer = ok
      })
      return answer
    }
    expect(ask('media')).toBe(false)
    expect(ask('geolocation')).toBe(false)
    expect(ask('clipboard-read')).toBe(false)
    expect(ask('notifications')).toBe(true)
    expect(fake.session.permissionCheckHandler?.(null, 'geolocation', 'file://')).toBe(false)
    expect(fake.session.permissionCheckHandler?.(null, 'media', 'file://')).toBe(false)
    expect(fake.session.permissionCheckHandler?.(null, 'notifications', 'file://')).toBe(true)
  })
})

describe('navigation and new windows', () => {
  function guarded(): FakeWebContents {
    const contents = new FakeWebContents()
    guardWebContents(contents as never, own)
    return contents
  }

  it('blocks navigation to another site and hands https links to the browser', async () => {
    const contents = guarded()
    const event = fakeEvent({ url: 'https://evil.example/phish' })
    contents.emit('will-navigate', event)
    await flush()
    expect(event.defaultPrevented).toBe(true)
    expect(fake.opened).toEqual(['https://evil.example/phish'])
  })

  it('blocks navigation to other local files and non-https schemes without opening them', async () => {
    const contents = guarded()
    for (const url of ['file:///etc/passwd', 'http://example.com/', 'javascript:alert(1)']) {
      const event = fakeEvent({ url })
      contents.emit('will-navigate', event)
      expect(event.defaultPrevented).toBe(true)
    }
    await flush()
    expect(fake.opened).toEqual([])
  })

  it('lets the app reload its own page', () => {
    const contents = guarded()
    const event = fakeEvent({ url: 'file:///opt/tickdesk/out/renderer/index.html#/alerts' })
    contents.emit('will-navigate', event)
    expect(event.defaultPrevented).toBe(false)
  })

  it('denies every new window, opening only valid https links externally', async () => {
    const contents = guarded()
    expect(contents.windowOpenHandler?.({ url: 'https://docs.example.com/' })).toEqual({
      action: 'deny',
    })
    expect(
      contents.windowOpenHandler?.({ url: 'file:///opt/tickdesk/out/renderer/index.html' }),
    ).toEqual({
      action: 'deny',
    })
    await flush()
    expect(fake.opened).toEqual(['https://docs.example.com/'])
  })

  it('refuses to attach a <webview>', () => {
    const contents = guarded()
    const event = fakeEvent({})
    contents.emit('will-attach-webview', event)
    expect(event.defaultPrevented).toBe(true)
  })
})

describe('openExternal', () => {
  it('opens https links only', async () => {
    expect(await openExternalLink('https://example.com/a?b=1')).toBe(true)
    for (const url of [
      'http://example.com',
      'file:///etc/passwd',
      'smb://host/share',
      'mailto:a@b.c',
      'not a url',
      42,
    ])
      expect(await openExternalLink(url)).toBe(false)
    expect(fake.opened).toEqual(['https://example.com/a?b=1'])
  })

  it('refuses URLs that carry credentials', () => {
    expect(externalLink('https://user:pass@example.com/')).toBeNull()
    expect(externalLink('https://user@example.com/')).toBeNull()
  })
})

describe('isAppUrl', () => {
  it('accepts only the built index.html, or the dev server origin in development', () => {
    expect(own('file:///opt/tickdesk/out/renderer/index.html')).toBe(true)
    expect(own('file:///opt/tickdesk/out/renderer/../renderer/index.html?x=1')).toBe(true)
    expect(own('file:///opt/tickdesk/out/renderer/other.html')).toBe(false)
    expect(own('file://evil-host/opt/tickdesk/out/renderer/index.html')).toBe(false)
    expect(own('about:blank')).toBe(false)
    const dev = { kind: 'dev', url: 'http://localhost:5173/' } as const
    expect(isAppUrl('http://localhost:5173/src/index.html', dev)).toBe(true)
    expect(isAppUrl('http://localhost:5174/', dev)).toBe(false)
  })
})
