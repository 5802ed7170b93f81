import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { axeFindings } from './axe'
import { chromiumOrSkip } from './chromium'
import { openDeskInChromium, type DeskInChromium } from './desk-in-chromium'

const chromiumPath = chromiumOrSkip()

/**
 * A service that quotes FX with bid and ask only (the simulator's bidAskOnly reading, REST and
 * stream): the row's Last is the mid of a bid and ask the service served, marked "mid" with the
 * bid and ask in its title and spoken text; the alert form says a price alert watches the mid.
 */

const ROW = 'tbody tr[data-key="fx:EURUSD"]'

/** The Last cell's price and its mark's words, read in one go (no tick between the two). */
async function lastCell(page: Page): Promise<{ text: string; title: string; spoken: string }> {
  return page.$eval(ROW, (tr) => {
    const td = tr.querySelector('[data-field="last"]')
    const mark = td?.querySelector('[data-testid="mid-mark"]')
    return {
      text: td?.querySelector('.v')?.textContent?.trim() ?? '',
      title: mark?.getAttribute('title') ?? '',
      spoken: mark?.querySelector('.sr-only')?.textContent ?? '',
    }
  })
}

describe.skipIf(!chromiumPath)('a price that is the mid of bid and ask (Chromium)', () => {
  let desk: DeskInChromium
  let page: Page

  beforeAll(async () => {
    desk = await openDeskInChromium(chromiumPath as string, {
      host: { sim: { behaviour: { bidAskOnly: ['fx'] } } },
    })
    page = desk.page
    await page.getByRole('tab', { name: 'Macro' }).click()
    await page.locator(`${ROW} [data-testid="mid-mark"]`).waitFor({ timeout: 20_000 })
  })

  afterAll(async () => {
    await desk?.close()
  })

  it('shows the mid of a bid and ask the service served in Last, marked "mid" with both', async () => {
    const cell = await lastCell(page)
    const at = Date.now()
    const m = /^mid of bid ([\d.]+) and ask ([\d.]+)$/.exec(cell.title)
    expect(m, cell.title).not.toBeNull()
    expect(cell.spoken).toBe(`, ${cell.title}`)
    const [bid, ask] = [Number(m?.[1]), Number(m?.[2])]
    const decimals = cell.text.split('.')[1]?.length ?? 0
    const shown = Number(cell.text.replace(/,/g, ''))
    const half = 0.5 * 10 ** -decimals + 1e-12
    // The price shown is the mid of the bid and ask its mark names...
    expect(Math.abs(shown - (bid + ask) / 2)).toBeLessThanOrEqual(half)
    // ...and of a bid and ask the simulator served in the last 10 s (never a last: it sends none).
    const served = desk.env.sim.served('fx:EURUSD', at - 10_000, at)
    expect(served.length).toBeGreaterThan(0)
    expect(served.every((s) => s.last === undefined)).toBe(true)
    const mids = served
      .filter((s) => s.bid !== undefined && s.ask !== undefined)
      .map((s) => ((s.bid as number) + (s.ask as number)) / 2)
    expect(
      mids.some((x) => Math.abs(x - shown) <= half),
      `${shown} of ${mids.join(' ')}`,
    ).toBe(true)
  })

  it('passes axe-core with the mark in the table, in light and dark', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      expect(await axeFindings(page, 'table'), scheme).toEqual([])
    }
    await page.emulateMedia({ colorScheme: null })
  })

  it('marks the mid in the detail view’s header, with the bid and ask', async () => {
    await page.locator(`${ROW} th button`).click()
    const mark = page.locator('[data-testid="detail-view"] header [data-testid="mid-mark"]')
    await mark.waitFor({ timeout: 10_000 })
    expect(await mark.getAttribute('title')).toMatch(/^mid of bid [\d.]+ and ask [\d.]+$/)
    await page.keyboard.press('Escape')
  })

  it('marks no row whose service sends a last', async () => {
    await page.locator('tbody tr[data-key="commodity:XAUUSD"] [data-field="last"]').waitFor()
    const marks = await page.$$eval('tbody tr[data-key] [data-testid="mid-mark"]', (els) =>
      els.map((el) => el.closest('tr')?.getAttribute('data-key')),
    )
    expect(marks).toEqual(['fx:EURUSD'])
  })

  it('tells, in the alert form, that a price alert on it watches the mid', async () => {
    await page.locator(`${ROW} button[aria-label="Add alert for fx:EURUSD"]`).click()
    const note = page.getByTestId('mid-note')
    await note.waitFor({ timeout: 5_000 })
    expect(await note.textContent()).toBe(
      'This alert watches the mid of bid and ask: this symbol has no last price.',
    )
    // A rule on the spread reads bid and ask themselves: no such note.
    const kind = page.getByRole('combobox', { name: 'Condition' })
    await kind.selectOption('spread')
    expect(await note.count()).toBe(0)
    // Made, the rule says in the panel that it watches the mid, once the host has judged it.
    await kind.selectOption('above')
    await page.getByRole('textbox', { name: 'Price' }).fill('0.5')
    await page.getByRole('button', { name: 'Create alert' }).click()
    const rule = page.locator('[data-testid="alerts-panel"] li[data-alert-id]', {
      hasText: 'fx:EURUSD',
    })
    await rule.getByText('on the mid').waitFor({ timeout: 10_000 })
    expect(await rule.getByText('on the mid').getAttribute('title')).toBe(
      'watches the mid of bid and ask: this symbol has no last price',
    )
  })

  it('marks the mid on the ticker strip, the heatmap tile and the wall tile', async () => {
    const strip = await desk.openPage({ url: null, viewport: { width: 1280, height: 40 } })
    await strip.goto(desk.deskUrl('/strip'))
    const item = strip.locator('li[data-key="fx:EURUSD"][data-copy="0"]')
    await item.locator('[data-testid="mid-mark"]').waitFor({ timeout: 20_000 })
    expect(await item.locator('button').getAttribute('title')).toMatch(
      /^Open fx:EURUSD in Tickdesk · mid of bid [\d.]+ and ask [\d.]+$/,
    )
    expect(await strip.locator('li[data-copy="0"] [data-testid="mid-mark"]').count()).toBe(1)
    await strip.close()

    const view = page.getByRole('group', { name: 'Watchlist view' })
    await view.getByRole('button', { name: 'Heatmap' }).click()
    const heat = page.locator('[data-testid="heat-tile"][data-key="fx:EURUSD"]')
    await heat.locator('[data-testid="mid-mark"]').waitFor({ timeout: 10_000 })
    expect(await heat.getAttribute('title')).toMatch(/^fx:EURUSD · the price is the mid of bid/)
    expect(await page.locator('[data-testid="heat-tile"] [data-testid="mid-mark"]').count()).toBe(1)

    await view.getByRole('button', { name: 'Chart wall' }).click()
    const tile = page.locator('[data-testid="wall-tile"][data-key="fx:EURUSD"]')
    await tile.locator('[data-testid="mid-mark"]').waitFor({ timeout: 10_000 })
    expect(await page.locator('[data-testid="wall-tile"] [data-testid="mid-mark"]').count()).toBe(1)
    await view.getByRole('button', { name: 'Table' }).click()
  })
})
