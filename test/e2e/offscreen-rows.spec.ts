/// <reference lib="dom" />
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BenchHost } from '../../bench/bench-host'
import { parseSymbolKey } from '../../src/shared/market'
import { formatPrice } from '../../src/renderer/src/lib/format'
import { rendererDir, startWebHost, type WebHost } from '../../src/web'
import { chromiumOrSkip, launchChromium } from './chromium'

const chromiumPath = chromiumOrSkip()

/** Keeps the newest `last` of every patch the renderer received (the hook gets them all). */
const LATEST_SCRIPT = `
globalThis.__latest = {};
globalThis.__tickdeskRendered = (patches) => {
  for (const p of patches) if (p.last !== undefined) globalThis.__latest[p.key] = p.last;
};
`

async function latest(page: Page, key: string): Promise<number | undefined> {
  return page.evaluate(
    (k) => (globalThis as unknown as { __latest: Record<string, number> }).__latest[k],
    key,
  )
}

function lastText(page: Page, key: string): Promise<string> {
  return page
    .locator(`tbody tr[data-key="${key}"] [data-field="last"]`)
    .textContent()
    .then((t) => t?.trim() ?? '')
}

function formatted(key: string, value: number): string {
  const ref = parseSymbolKey(key)
  if (ref === null) throw new Error(`bad key ${key}`)
  return formatPrice(value, ref.market, ref.symbol)
}

describe.skipIf(!chromiumPath)('rows scrolled out of view (real renderer, Chromium)', () => {
  let browser: Browser
  let app: BenchHost
  let host: WebHost
  let page: Page

  beforeAll(async () => {
    browser = await launchChromium(chromiumPath as string)
    app = new BenchHost({ symbols: 120, ticksPerSec: 2000 })
    host = await startWebHost({ app, rendererDir: rendererDir() })
    page = await browser.newPage({ viewport: { width: 1280, height: 700 } })
    await page.addInitScript(LATEST_SCRIPT)
    await page.goto(host.url)
    await page.waitForFunction(() => document.querySelectorAll('tbody tr[data-key]').length >= 120)
  })

  afterAll(async () => {
    app?.feed.stop()
    await page?.close()
    await browser?.close()
    await host?.close()
    await app?.close()
  })

  it('skip DOM writes while hidden, and show the newest price in the very frame they scroll in', async () => {
    const top = app.feed.keys[0] as string
    const bottom = app.feed.keys.at(-1) as string
    const before = await lastText(page, bottom)
    app.feed.start()
    // The top row, in view, follows the feed; the bottom row, far below the fold, is not written.
    await expect
      .poll(async () => {
        const value = await latest(page, top)
        return value !== undefined && (await lastText(page, top)) === formatted(top, value)
      })
      .toBe(true)
    await expect.poll(() => latest(page, bottom)).toBeDefined()
    await expect
      .poll(async () => formatted(bottom, (await latest(page, bottom)) as number))
      .not.toBe(before)
    expect(await lastText(page, bottom)).toBe(before)

    app.feed.stop()
    // Let the last batches land, then jump to the bottom (far beyond the observer's margin).
    await page.waitForTimeout(300)
    const expected = formatted(bottom, (await latest(page, bottom)) as number)
    const shownInFirstFrame = await page.evaluate((key) => {
      // The table's scroll container: its nearest ancestor that scrolls (the grid pane).
      let pane = document.querySelector('table')?.parentElement ?? null
      while (pane && getComputedStyle(pane).overflowY !== 'auto') pane = pane.parentElement
      if (!pane) throw new Error('the table has no scroll container')
      pane.scrollTop = pane.scrollHeight
      // Scroll events run before animation-frame callbacks: this frame is the one painted.
      return new Promise<string>((resolve) =>
        requestAnimationFrame(() =>
          resolve(
            document
              .querySelector(`tbody tr[data-key="${key}"] [data-field="last"]`)
              ?.textContent?.trim() ?? '',
          ),
        ),
      )
    }, bottom)
    expect(shownInFirstFrame).toBe(expected)
  })
})
