import { shell, type Session, type WebContents } from 'electron'
import { CONTENT_SECURITY_POLICY } from '../shared/security/content-security-policy'
import { externalLink, isPermissionAllowed } from './link-policy'

/**
 * The renderer's sandbox, beyond the BrowserWindow flags (Electron security checklist):
 * a strict CSP on every response, no permissions but notifications, no navigation away from the
 * app, no new windows, and external links only as validated https through the OS browser.
 */
export { CONTENT_SECURITY_POLICY, externalLink, isPermissionAllowed }

/** Sends the CSP as a response header (in addition to the page's meta tag) and locks permissions. */
export function applySessionPolicy(session: Session): void {
  session.webRequest.onHeadersReceived((details, callback) => {
    const headers: Record<string, string | string[]> = {}
    for (const [name, value] of Object.entries(details.responseHeaders ?? {})) {
      // Drop any CSP a server sent, so ours is the only one and cannot be loosened.
      if (name.toLowerCase() !== 'content-security-policy') headers[name] = value
    }
    headers['Content-Security-Policy'] = [CONTENT_SECURITY_POLICY]
    callback({ responseHeaders: headers })
  })
  session.setPermissionRequestHandler((_contents, permission, callback) => {
    callback(isPermissionAllowed(permission))
  })
  session.setPermissionCheckHandler((_contents, permission) => isPermissionAllowed(permission))
}

/** Opens a link in the user's browser if externalLink() accepts it; false when refused. */
export async function openExternalLink(raw: unknown): Promise<boolean> {
  const href = externalLink(raw)
  if (href === null) return false
  await shell.openExternal(href)
  return true
}

/**
 * Blocks navigation away from the app and every new window; a blocked https link opens in the
 * user's browser instead. <webview> is refused even if a page manages to create one.
 */
export function guardWebContents(contents: WebContents, isAppUrl: (url: string) => boolean): void {
  contents.on('will-navigate', (event) => {
    if (isAppUrl(event.url)) return
    event.preventDefault()
    void openExternalLink(event.url)
  })
  contents.on('will-redirect', (event) => {
    if (!isAppUrl(event.url)) event.preventDefault()
  })
  contents.on('will-attach-webview', (event) => event.preventDefault())
  contents.setWindowOpenHandler(({ url }) => {
    void openExternalLink(url)
    return { action: 'deny' }
  })
}
