import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromiumOrSkip } from './chromium'
import { openDeskInChromium, type DeskInChromium } from './desk-in-chromium'

const chromiumPath = chromiumOrSkip()

/**
 * In the page, every frame until the live grid has shown a few: whether the host's cached
 * snapshot (#cached-desk) and the app's grid (#app) are on screen. A frame with both, or with
 * neither once the snapshot was seen, is what the trader would see as a duplicate or a flash.
 */
const FRAME_RECORDER = `(() => {
  const f = (window.__coldFrames = { snapshot: 0, app: 0, both: 0, neither: 0 })
  const shown = (sel) => {
    const el = document.querySelector(sel)
    return el !== null && el.checkVisibility({ visibilityProperty: true })
  }
  let seen = false
  const frame = () => {
    const s = shown('#cached-desk tbody tr[data-cached-key]')
    const a = shown('#app tbody tr[data-key]')
    if (s) f.snapshot++
    if (a) f.app++
    if (s && a) f.both++
    if (seen && !s && !a) f.neither++
    seen = seen || s
    if (f.app < 5) requestAnimationFrame(frame)
  }
  requestAnimationFrame(frame)
})()`

/**
 * Where a table sits: its top, its first row's height and its columns' widths, in px; and how
 * the header's and the first row's cells align their text.
 */
function tableBox(page: Page, sel: string): Promise<Box> {
  return page.evaluate((q) => {
    const table = document.querySelector(q)
    const row = table?.querySelector('tbody tr')
    const cells = [...(table?.querySelectorAll('thead th') ?? []), ...(row?.children ?? [])]
    return {
      top: table?.getBoundingClientRect().top ?? NaN,
      row: row?.getBoundingClientRect().height ?? NaN,
      cols: [...(table?.querySelectorAll('col') ?? [])].map((c) => c.getBoundingClientRect().width),
      align: cells.map((c) => getComputedStyle(c).textAlign),
    }
  }, sel)
}

interface Box {
  top: number
  row: number
  cols: number[]
  align: string[]
}

interface Frames {
  snapshot: number
  app: number
  both: number
  neither: number
}

describe.skipIf(!chromiumPath)(
  'a desk opened on a cached list (browser host, real Chromium)',
  () => {
    let desk: DeskInChromium

    beforeAll(async () => {
      desk = await openDeskInChromium(chromiumPath as string, {
        context: { viewport: { width: 1600, height: 900 } },
      })
    })

    afterAll(async () => {
      await desk?.close()
    })

    it('shows the cached prices marked Cached, then the live grid in their place, never both', async () => {
      const env = desk.env
      const list = env.app.lists.watchlists.find((w) => w.id === env.app.lists.activeId)
      const keys = list?.symbols ?? []
      expect(keys.length).toBeGreaterThan(2)
      // Every row priced, then a restart (closing writes the quote cache) with the service down.
      await expect
        .poll(() => keys.every((k) => env.app.quoteOf(k)?.last != null), { timeout: 20_000 })
        .toBe(true)
      await env.restart()
      await env.sim.faults.down()

      const page = await desk.openPage({ url: null })
      await page.addInitScript(FRAME_RECORDER)
      // The app's code is held back, as on a slow start: the page shows what the host drew.
      let release = (): void => undefined
      const held = new Promise<void>((resolve) => (release = resolve))
      await page.route(/\/assets\/main-[^/]*\.js$/, async (route) => {
        await held
        await route.continue()
      })
      // The snapshot paints from the page's one response: its styles come inline, not linked.
      const stylesheets: string[] = []
      page.on('request', (r) => {
        if (r.resourceType() === 'stylesheet') stylesheets.push(r.url())
      })
      await page.goto(desk.deskUrl(), { waitUntil: 'commit' })

      await page.locator('#cached-desk').waitFor()
      const position = await page.evaluate(
        () => getComputedStyle(document.getElementById('cached-desk') as Element).position,
      )
      expect(position).toBe('fixed')
      // One list for the eye and for assistive technology: the snapshot's rows only.
      await expect.poll(() => page.getByRole('row').count()).toBe(keys.length + 1)
      const badges = await page.locator('#cached-desk [data-cached-key] .badge').allTextContents()
      expect(badges).toEqual(keys.map(() => 'Cached'))
      const prices = await page
        .locator('#cached-desk [data-cached-key] [data-cached-field="last"]')
        .allTextContents()
      expect(prices.every((p) => /\d/.test(p))).toBe(true)
      expect(await page.locator('#app tbody tr[data-key]').count()).toBe(0)

      const cachedBox = await tableBox(page, '#cached-desk table')
      expect(stylesheets).toEqual([])
      release()
      await page.locator('#app tbody tr[data-key]').first().waitFor({ timeout: 20_000 })
      await expect.poll(() => page.locator('#cached-desk').count()).toBe(0)
      await expect.poll(() => page.getByRole('row').count()).toBe(keys.length + 1)
      // The grid's own rows, with the cached prices (the service is still down).
      const live = await page
        .locator('#app tbody tr[data-key] [data-field="last"]')
        .allTextContents()
      expect(live.slice(0, keys.length).every((p) => /\d/.test(p))).toBe(true)

      // No jump: the grid takes the snapshot's place, row for row and column for column.
      const liveBox = await tableBox(page, '#app table[aria-rowcount]')
      expect(Math.abs(liveBox.top - cachedBox.top)).toBeLessThan(1)
      expect(Math.abs(liveBox.row - cachedBox.row)).toBeLessThan(1)
      expect(liveBox.cols.map(Math.round)).toEqual(cachedBox.cols.map(Math.round))
      expect(cachedBox.align).toContain('right')
      expect(liveBox.align).toEqual(cachedBox.align)
      await expect
        .poll(() => page.evaluate(() => (window as { __coldFrames?: Frames }).__coldFrames?.app))
        .toBeGreaterThanOrEqual(5)
      const frames = await page.evaluate(
        () => (window as unknown as { __coldFrames: Frames }).__coldFrames,
      )
      expect(frames.snapshot).toBeGreaterThan(0)
      expect(frames.both).toBe(0)
      expect(frames.neither).toBe(0)
      await env.sim.faults.up()
      await page.close()
    })
  },
)
