import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { axeFindings } from './axe'
import { chromiumOrSkip } from './chromium'
import { openDeskInChromium, type DeskInChromium } from './desk-in-chromium'
import type { HostUnderTest } from './in-process-host'
import { readmeScreenshot } from './screenshots'

const chromiumPath = chromiumOrSkip()
const row = (key: string): string => `tbody tr[data-key="${key}"]`
const ADD = ['futures:ES1!', 'futures:NQ1!', 'crypto:ETHUSDT']

/** Pixels of a tile's canvas that are neither transparent nor the background: candles drawn. */
const paintedPixels = (index: number): string => `(() => {
  const canvas = document.querySelectorAll('[data-testid="wall-tile"] canvas')[${index}]
  const ctx = canvas && canvas.getContext('2d')
  if (!ctx) return -1
  const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data
  let n = 0
  for (let i = 3; i < data.length; i += 4) if (data[i] > 200) n++
  return n
})()`

/** Pixels of a tile's canvas in the accent colour (its alert lines), within a small tolerance. */
const accentPixels = (key: string): string => `(() => {
  const tile = document.querySelector('[data-testid="wall-tile"][data-key="${key}"]')
  const canvas = tile && tile.querySelector('canvas')
  const ctx = canvas && canvas.getContext('2d')
  if (!ctx) return -1
  const probe = document.createElement('canvas').getContext('2d')
  probe.fillStyle = getComputedStyle(tile).getPropertyValue('--accent').trim()
  const hex = probe.fillStyle
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16))
  const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data
  let n = 0
  for (let i = 0; i < data.length; i += 4)
    if (data[i + 3] > 200 && Math.abs(data[i] - r) + Math.abs(data[i + 1] - g) + Math.abs(data[i + 2] - b) < 40) n++
  return n
})()`

const focusedKey = (page: Page): Promise<string | null> =>
  page.evaluate(`document.activeElement?.getAttribute('data-key') ?? null`)

/**
 * The watchlist as a wall of mini charts in real Chromium through the browser
 * host: a tile per symbol with a drawn canvas, arrows between tiles, Enter opening the detail
 * chart, the view and interval remembered in settings.
 */
describe.skipIf(!chromiumPath)('the chart wall (browser host)', () => {
  let desk: DeskInChromium
  let env: HostUnderTest
  let page: Page
  let keys: string[] = []

  beforeAll(async () => {
    desk = await openDeskInChromium(chromiumPath as string, {
      context: { viewport: { width: 1440, height: 900 } },
    })
    ;({ env, page } = desk)
    for (const key of ADD) {
      if ((await page.locator(row(key)).count()) > 0) continue
      await page.getByLabel('Add symbol').fill(key)
      await page.getByRole('button', { name: 'Add', exact: true }).click()
      await page.locator(row(key)).waitFor({ timeout: 20_000 })
    }
    keys = await page
      .locator('tbody tr[data-key]')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-key') ?? ''))
  })

  afterAll(async () => {
    await desk?.close()
  })

  it('shows the list as tiles, each a candle chart drawn on a canvas', async () => {
    await page.getByRole('button', { name: 'Chart wall' }).click()
    const n = Math.min(keys.length, 12)
    const tiles = page.getByTestId('wall-tile')
    await expect.poll(() => tiles.count(), { timeout: 20_000 }).toBe(n)
    expect(await page.locator('[data-testid="wall-tile"] canvas').count()).toBeGreaterThanOrEqual(n)
    expect(await tiles.evaluateAll((t) => t.map((e) => e.getAttribute('data-key')))).toEqual(
      keys.slice(0, n),
    )
    // A futures tile has bars from the candle endpoint: its canvas has candles on it.
    const es = keys.slice(0, n).indexOf('futures:ES1!')
    await expect
      .poll(() => page.evaluate(paintedPixels(es)), { timeout: 20_000 })
      .toBeGreaterThan(50)
    await expect
      .poll(() => page.getByTestId('wall-budget').textContent(), { timeout: 10_000 })
      .toMatch(/^Wall: \d+ candle calls? \(one per symbol, one every [\d.]+ s/)
    await expect.poll(() => env.app.settings.chart.wall?.view, { timeout: 5000 }).toBe('wall')
    await readmeScreenshot(page, 'wall-1440x900')
  })

  it('has no serious accessibility finding on the wall', async () => {
    expect(await axeFindings(page, '[data-testid="chart-wall"]')).toEqual([])
  })

  it('moves between tiles with the arrow keys', async () => {
    const tiles = page.getByTestId('wall-tile')
    await tiles.first().focus()
    expect(await focusedKey(page)).toBe(keys[0])
    await page.keyboard.press('ArrowRight')
    expect(await focusedKey(page)).toBe(keys[1])
    const columns = await page
      .locator('[data-testid="chart-wall"] [role="group"][aria-label^="Mini charts"]')
      .evaluate((g) => getComputedStyle(g).gridTemplateColumns.split(' ').length)
    await page.keyboard.press('ArrowDown')
    expect(await focusedKey(page)).toBe(keys[1 + columns] ?? keys[1])
    await page.keyboard.press('ArrowUp')
    await page.keyboard.press('ArrowLeft')
    expect(await focusedKey(page)).toBe(keys[0])
  })

  it('opens the focused tile in the detail chart with Enter', async () => {
    await page.keyboard.press('ArrowRight')
    await page.keyboard.press('Enter')
    await expect
      .poll(() => page.getByTestId('detail-view').locator('h2').textContent(), { timeout: 20_000 })
      .toBe(keys[1])
    await page.keyboard.press('Escape')
  })

  it("draws a symbol's alert level on its tile as a line", async () => {
    const key = 'futures:ES1!'
    expect(await page.evaluate(accentPixels(key))).toBe(0)
    await page.locator(`[data-testid="wall-tile"][data-key="${key}"]`).click()
    const chart = page.getByTestId('candle-chart')
    await expect.poll(() => chart.getAttribute('data-bars'), { timeout: 20_000 }).not.toBe('0')
    await chart.focus()
    await page.keyboard.press('a')
    await page.keyboard.press('Enter')
    await expect
      .poll(() => env.app.rules.filter((r) => r.key === key).length, { timeout: 5000 })
      .toBe(1)
    await page.getByRole('button', { name: 'Close detail' }).click()
    await expect
      .poll(() => page.evaluate(accentPixels(key)), { timeout: 10_000 })
      .toBeGreaterThan(20)
  })

  it('remembers the interval; a new interval redraws the same tiles', async () => {
    await page
      .getByRole('group', { name: 'Wall interval' })
      .getByRole('button', { name: '1h' })
      .click()
    await expect.poll(() => env.app.settings.chart.wall?.interval, { timeout: 5000 }).toBe('1h')
    await page.reload()
    await page.getByTestId('connection-state').waitFor({ timeout: 20_000 })
    await expect
      .poll(() => page.getByTestId('wall-tile').count(), { timeout: 20_000 })
      .toBeGreaterThan(3)
    const pressed = page
      .getByRole('group', { name: 'Wall interval' })
      .getByRole('button', { name: '1h' })
    expect(await pressed.getAttribute('aria-pressed')).toBe('true')
  })
})
