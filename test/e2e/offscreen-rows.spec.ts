/// <reference lib="dom" />
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BenchHost } from '../../bench/bench-host'
import { parseSymbolKey } from '../../src/shared/markets/market'
import { formatPrice } from '../../src/shared/figures/figure-text'
import { rendererDir, startWebHost, type WebHost } from '../../src/web'
import { chromiumOrSkip } from './chromium'
import { openDeskInChromium, type DeskInChromium, type Served } from './desk-in-chromium'

const chromiumPath = chromiumOrSkip()

function formatted(key: string, value: number): string {
  const ref = parseSymbolKey(key)
  if (ref === null) throw new Error(`bad key ${key}`)
  return formatPrice(value, ref.market, ref.symbol)
}

function lastText(page: Page, key: string): Promise<string> {
  return page
    .locator(`tbody tr[data-key="${key}"] [data-field="last"]`)
    .textContent()
    .then((t) => t?.trim() ?? '')
}

describe.skipIf(!chromiumPath)('rows out of view (real renderer, Chromium)', () => {
  let desk: DeskInChromium<Served>
  let app: BenchHost
  let page: Page

  beforeAll(async () => {
    desk = await openDeskInChromium(chromiumPath as string, {
      serve: () => benchDesk(new BenchHost({ symbols: 120, ticksPerSec: 2000 })),
      context: { viewport: { width: 1280, height: 700 } },
      ready: (p) => p.waitForSelector('tbody tr[data-key]'),
    })
    page = desk.page
  })

  afterAll(async () => {
    await desk?.close()
  })

  /** The bench's app on the browser host: a feed the test starts and stops itself. */
  async function benchDesk(bench: BenchHost): Promise<Served> {
    app = bench
    const host: WebHost = await startWebHost({ app, rendererDir: rendererDir() })
    return {
      get url() {
        return host.launchUrl()
      },
      close: async () => {
        app.feed.stop()
        await host.close()
        await app.close()
      },
    }
  }

  it('are not in the DOM, the grid still counts every symbol, and rows in view follow the feed', async () => {
    const top = app.feed.keys[0] as string
    const bottom = app.feed.keys.at(-1) as string
    expect(await page.locator('table[aria-rowcount="121"]').count()).toBe(1)
    const rendered = await page.locator('tbody tr[data-key]').count()
    expect(rendered).toBeGreaterThan(5)
    expect(rendered).toBeLessThan(60)
    expect(await page.locator(`tbody tr[data-key="${bottom}"]`).count()).toBe(0)
    // Row positions are the table's (aria-rowindex), so a screen reader says "row 2 of 121".
    expect(await page.locator(`tbody tr[data-key="${top}"]`).getAttribute('aria-rowindex')).toBe(
      '2',
    )
    app.feed.start()
    await page.waitForTimeout(1000)
    app.feed.stop()
    const newest = app.feed.store.get(top)?.last as number
    // The claim is that the row ends on the newest price, not how soon.
    await expect.poll(() => lastText(page, top), { timeout: 10_000 }).toBe(formatted(top, newest))
  })

  it('show the newest price in the very frame they scroll in', async () => {
    const bottom = app.feed.keys.at(-1) as string
    app.feed.start()
    await page.waitForTimeout(1000)
    app.feed.stop()
    // Let the last batches land (a row in view shows the newest price), then jump to the bottom,
    // far beyond the rendered rows.
    const top = app.feed.keys[0] as string
    const newestTop = formatted(top, app.feed.store.get(top)?.last as number)
    await expect.poll(() => lastText(page, top), { timeout: 10_000 }).toBe(newestTop)
    const expected = formatted(bottom, app.feed.store.get(bottom)?.last as number)
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
    expect(await page.locator(`tbody tr[data-key="${bottom}"]`).getAttribute('aria-rowindex')).toBe(
      '121',
    )
  })

  it('keyboard selection reaches rows that were not rendered, and brings them into view', async () => {
    const target = app.feed.keys[90] as string
    await page.evaluate(() => {
      ;(document.querySelector('main') as HTMLElement).scrollTop = 0
    })
    await page.locator('body').click({ position: { x: 5, y: 5 } })
    for (let i = 0; i < 91; i++) await page.keyboard.press('j')
    const row = page.locator(`tbody tr[data-key="${target}"]`)
    await expect.poll(() => row.getAttribute('aria-selected')).toBe('true')
    expect(await row.getAttribute('aria-rowindex')).toBe('92')
    const box = await row.boundingBox()
    expect(box).not.toBeNull()
    expect((box?.y ?? -1) >= 0 && (box?.y ?? 1e9) + (box?.height ?? 0) <= 700).toBe(true)
  })
})
