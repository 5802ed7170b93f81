import type { Page, Request } from 'playwright-core'

/** What a page complained about while a test ran, and how a test leaves a document it loaded. */
export interface PageWatch {
  problems: string[]
  requested: string[]
  /**
   * Call just before the test itself navigates or reloads: the requests still in flight belong to
   * the document being left, and so do those it starts before the next document commits (an idle
   * prefetch can fire in that gap: seen in CI, the panels' chunks ERR_ABORTED after a reload).
   * The browser cancels them (net::ERR_ABORTED). That is the test's doing, not the page's; any
   * other failure of theirs, and every failure of the next document's requests, still counts.
   */
  leaving(): void
}

/**
 * Console errors, uncaught exceptions, failed requests and HTTP errors (a /favicon.ico 404 shows
 * up here as both).
 */
export function watchPage(page: Page): PageWatch {
  const problems: string[] = []
  const requested: string[] = []
  const inFlight = new Set<Request>()
  const leftBehind = new WeakSet<Request>()
  // True from leaving() until the main frame commits the next document: a subresource requested
  // in that window was asked for by the document being left.
  let leavingDocument = false
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) leavingDocument = false
  })
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`)
  })
  page.on('pageerror', (e) => problems.push(`exception: ${e.message}`))
  page.on('request', (r) => {
    requested.push(r.url())
    if (leavingDocument && !r.isNavigationRequest()) leftBehind.add(r)
    else inFlight.add(r)
  })
  page.on('requestfinished', (r) => inFlight.delete(r))
  page.on('requestfailed', (r) => {
    inFlight.delete(r)
    const reason = r.failure()?.errorText ?? ''
    if (reason === 'net::ERR_ABORTED' && leftBehind.has(r)) return
    // Chromium may cancel a favicon fetch it no longer needs (seen once in CI): the browser's
    // choice, not a load that failed. Any other failure, or any other error on the icon, counts.
    if (reason === 'net::ERR_ABORTED' && /\/assets\/icon-[^/]+\.svg$/.test(r.url())) return
    problems.push(`failed: ${r.url()} ${reason}`)
  })
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`${r.status()}: ${r.url()}`)
  })
  const leaving = (): void => {
    for (const r of inFlight) leftBehind.add(r)
    inFlight.clear()
    leavingDocument = true
  }
  return { problems, requested, leaving }
}
