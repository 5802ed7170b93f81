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
  page.on('requestfailed', (r) => problems.push(`failed: ${r.url()}`))
  page.on('request', (r) => requested.push(r.url()))
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`${r.status()}: ${r.url()}`)
  })
  return { problems, requested }
}
