import type { Page } from 'playwright-core'

/**
 * What a page complained about while a test ran: console errors, uncaught exceptions, failed
 * requests and HTTP errors (a /favicon.ico 404 shows up here as both).
 */
export function watchPage(page: Page): { problems: string[]; requested: string[] } {
  const problems: string[] = []
  const requested: string[] = []
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`)
  })
  page.on('pageerror', (e) => problems.push(`exception: ${e.message}`))
  page.on('requestfailed', (r) => {
    const reason = r.failure()?.errorText ?? ''
    // Chromium may cancel a favicon fetch it no longer needs (seen once in CI): the browser's
    // choice, not a load that failed. Any other failure, or any other error on the icon, counts.
    if (reason === 'net::ERR_ABORTED' && /\/assets\/icon-[^/]+\.svg$/.test(r.url())) return
    problems.push(`failed: ${r.url()} ${reason}`)
  })
  page.on('request', (r) => requested.push(r.url()))
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`${r.status()}: ${r.url()}`)
  })
  return { problems, requested }
}
