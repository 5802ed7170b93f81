/// <reference lib="dom" />
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_SYMBOLS_PER_LIST } from '../../src/shared/watchlist'
import { chromiumOrSkip } from './chromium'
import { openDeskInChromium, type DeskInChromium } from './desk-in-chromium'
import type { HostUnderTest } from './in-process-host'

const chromiumPath = chromiumOrSkip()

/** The simulator's generated universe: crypto:ZC00001 and on, as many as asked for. */
const keys = Array.from(
  { length: MAX_SYMBOLS_PER_LIST },
  (_, i) => `crypto:ZC${String(i + 1).padStart(5, '0')}`,
)

const rowCount = (page: Page): Promise<number> =>
  page.evaluate(
    () => Number(document.querySelector('table[aria-rowcount]')?.getAttribute('aria-rowcount')) - 1,
  )

const renderedKeys = (page: Page): Promise<string[]> =>
  page
    .locator('tbody tr[data-key]')
    .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-key') ?? ''))

describe.skipIf(!chromiumPath)('a 5000-symbol watchlist in Chromium', () => {
  let desk: DeskInChromium
  let env: HostUnderTest
  let page: Page

  beforeAll(async () => {
    desk = await openDeskInChromium(chromiumPath as string, {
      context: { viewport: { width: 1400, height: 900 } },
    })
    ;({ env, page } = desk)
  })

  afterAll(async () => {
    await desk?.close()
  })

  it('is imported whole and shown with only the rows in view in the DOM', async () => {
    const json = { watchlists: [{ name: 'Desk 5000', symbols: keys }] }
    await page.locator('input[type="file"]').setInputFiles({
      name: 'desk.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(json)),
    })
    await page.getByRole('tab', { name: 'Desk 5000' }).click()
    await expect.poll(() => rowCount(page), { timeout: 20_000 }).toBe(5000)
    expect(env.app.lists.watchlists.find((w) => w.name === 'Desk 5000')?.symbols).toEqual(keys)
    const shown = await renderedKeys(page)
    expect(shown[0]).toBe(keys[0])
    expect(shown.length).toBeGreaterThan(5)
    expect(shown.length).toBeLessThan(80)
  })

  it('scrolls to its last symbol with the DOM still bounded', async () => {
    await page.evaluate(() => {
      let pane = document.querySelector('table')?.parentElement ?? null
      while (pane && getComputedStyle(pane).overflowY !== 'auto') pane = pane.parentElement
      if (!pane) throw new Error('the table has no scroll container')
      pane.scrollTop = pane.scrollHeight
    })
    await expect.poll(async () => (await renderedKeys(page)).at(-1)).toBe(keys.at(-1))
    expect((await renderedKeys(page)).length).toBeLessThan(80)
  })

  it('sorts it with every row in view showing its own symbol and price', async () => {
    await page.evaluate(() => {
      let pane = document.querySelector('table')?.parentElement ?? null
      while (pane && getComputedStyle(pane).overflowY !== 'auto') pane = pane.parentElement
      if (pane) pane.scrollTop = 0
    })
    const header = page.locator('thead button.sort').first()
    await header.click()
    await header.click()
    await expect.poll(async () => (await renderedKeys(page))[0]).toBe(keys.at(-1))
    // The simulator prices crypto:ZC<n> near 10 + n % 997 (ZC05000 near 25, ZC04999 near 24):
    // a price drawn into another symbol's row would be off by far more than 3%.
    const rows = (): Promise<Array<{ key: string; symbol: string; last: string }>> =>
      page.locator('tbody tr[data-key]').evaluateAll((trs) =>
        trs.map((tr) => ({
          key: tr.getAttribute('data-key') ?? '',
          symbol: tr.querySelector('th.symbol button')?.textContent?.trim() ?? '',
          last: tr.querySelector('[data-field="last"]')?.textContent?.trim() ?? '',
        })),
      )
    const priced = async (): Promise<number> =>
      (await rows()).filter((r) => Number.isFinite(Number.parseFloat(r.last))).length
    // Rows far down the list get their first price with the first poll round of all 5000.
    await expect.poll(priced, { timeout: 60_000 }).toBeGreaterThan(5)
    for (const r of await rows()) {
      expect(`crypto:${r.symbol}`).toBe(r.key)
      const last = Number.parseFloat(r.last.replace(/,/g, ''))
      if (!Number.isFinite(last)) continue
      const level = 10 + (Number(r.key.slice('crypto:ZC'.length)) % 997)
      expect(Math.abs(last / level - 1)).toBeLessThan(0.03)
    }
    await header.click()
    await expect.poll(async () => (await renderedKeys(page))[0]).toBe(keys[0])
  })

  it('comes back from a short list on the same row elements, the spares hidden meanwhile', async () => {
    const tabs = page.getByRole('tablist', { name: 'Watchlists' }).getByRole('tab')
    const short = (await tabs.allTextContents()).find((t) => t.trim() !== 'Desk 5000')?.trim()
    if (short === undefined) throw new Error('no other list')
    // Each row of the big list marked, as an element: a row created anew has no mark.
    const { marked, total } = await page.evaluate(() => {
      const rows = [...document.querySelectorAll('tbody tr[data-key]')]
      rows.forEach((tr, i) => Object.assign(tr, { __mark: i }))
      // Spares the scroll to the end left (its window was longer) count as rows to keep.
      return {
        marked: rows.length,
        total: document.querySelectorAll('tbody tr:not(.spacer)').length,
      }
    })
    await page.getByRole('tab', { name: short, exact: true }).click()
    await expect.poll(() => rowCount(page)).toBeLessThan(20)
    const small = await rowCount(page)
    const spares = await page.evaluate(() =>
      [...document.querySelectorAll('tbody tr:not(.spacer):not([data-key])')].map((tr) => ({
        hidden: (tr as HTMLElement).hidden,
        rowindex: tr.getAttribute('aria-rowindex'),
        shown: (tr as HTMLElement).offsetHeight > 0,
      })),
    )
    expect(spares.length).toBe(total - small)
    expect(spares.every((s) => s.hidden && s.rowindex === null && !s.shown)).toBe(true)
    expect((await renderedKeys(page)).length).toBe(small)
    await page.getByRole('tab', { name: 'Desk 5000' }).click()
    await expect.poll(() => rowCount(page)).toBe(5000)
    const back = await page.evaluate(() =>
      [...document.querySelectorAll('tbody tr[data-key]')].map(
        (tr) => (tr as unknown as { __mark?: number }).__mark ?? null,
      ),
    )
    expect(back).toEqual(Array.from({ length: marked }, (_, i) => i))
    expect(await renderedKeys(page)).toEqual(keys.slice(0, marked))
  })

  it('refuses a symbol past the cap and says why', async () => {
    await page.getByLabel('Add symbol').fill('crypto:ZC05001')
    await page.keyboard.press('Enter')
    await expect
      .poll(() => page.getByTestId('add-report').textContent())
      .toContain(`At most ${MAX_SYMBOLS_PER_LIST} symbols a list`)
    expect(await rowCount(page)).toBe(5000)
  })
})
