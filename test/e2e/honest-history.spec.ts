import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromiumOrSkip } from './chromium'
import { openDeskInChromium, type DeskInChromium } from './desk-in-chromium'
import type { HostUnderTest } from './in-process-host'
import { readmeScreenshot } from './screenshots'

const chromiumPath = chromiumOrSkip()
/** The Macro demo list's markets whose bars the app builds from live prices (no candle endpoint). */
const BUILT = ['fx:EURUSD', 'commodity:XAUUSD', 'index:SPX', 'hk:00700', 'cn:600519']
const tile = (key: string): string => `[data-testid="wall-tile"][data-key="${key}"]`

let desk: DeskInChromium
let env: HostUnderTest
let page: Page

/**
 * The rows of the canvas a tile's candles are painted on (up or down colour), top and bottom, and
 * the canvas's height: how much of the tile one bar spans, seen from outside.
 */
const candleRows = (key: string): string => `(() => {
  const t = document.querySelector(${JSON.stringify(tile(key))})
  const canvas = t && t.querySelector('canvas')
  const ctx = canvas && canvas.getContext('2d')
  if (!ctx) return null
  const probe = document.createElement('canvas').getContext('2d')
  const rgb = (name) => {
    probe.fillStyle = getComputedStyle(t).getPropertyValue(name).trim()
    const hex = probe.fillStyle
    return [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16))
  }
  const colours = [rgb('--up'), rgb('--down')]
  const { width, height } = canvas
  const data = ctx.getImageData(0, 0, width, height).data
  let top = -1, bottom = -1
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4
      if (data[i + 3] < 200) continue
      if (colours.some(([r, g, b]) => Math.abs(data[i] - r) + Math.abs(data[i + 1] - g) + Math.abs(data[i + 2] - b) < 40)) {
        if (top < 0) top = y
        bottom = y
      }
    }
  return { top, bottom, height }
})()`

async function tileFigures(page: Page, key: string) {
  return page.locator(tile(key)).evaluate((t) => ({
    bars: Number(t.getAttribute('data-bars')),
    building: t.getAttribute('data-building'),
    yMin: Number(t.getAttribute('data-y-min')),
    yMax: Number(t.getAttribute('data-y-max')),
    note: t.querySelector('[data-testid="tile-note"]')?.textContent ?? '',
    axis: [...(t.querySelector('[data-testid="tile-axis"]')?.children ?? [])].map(
      (s) => s.textContent,
    ),
    title: t.getAttribute('title') ?? '',
  }))
}

/** labels a building tile's price axis, says how many bars of how many, and takes in the day */
async function buildingTilesLabelled(): Promise<void> {
  for (const key of BUILT) {
    await expect
      .poll(() => tileFigures(page, key).then((f) => f.building), { timeout: 20_000 })
      .toBe('true')
    const f = await tileFigures(page, key)
    expect(f.bars, key).toBeLessThan(48)
    expect(f.note, key).toMatch(/^building: \d+ of 48 bars since \d\d:\d\d$/)
    expect(f.title, key).toMatch(/^Building: \d+ of 48 bars since .*from live prices/)
    expect(
      f.axis.every((a) => a !== null && /\d/.test(a)),
      `${key} axis ${f.axis.join(' ')}`,
    ).toBe(true)
    const q = env.app.quoteOf(key)
    if (q?.high != null && q.low != null) {
      expect(f.yMin, key).toBeLessThanOrEqual(q.low)
      expect(f.yMax, key).toBeGreaterThanOrEqual(q.high)
    }
  }
}

/** never draws a single bar across the full height of a tile */
async function noBarAcrossTile(): Promise<void> {
  for (const key of BUILT) {
    const rows = await page.evaluate(candleRows(key))
    expect(rows, key).not.toBeNull()
    const { top, bottom, height } = rows as { top: number; bottom: number; height: number }
    expect(top, `${key}: some candle drawn`).toBeGreaterThanOrEqual(0)
    expect((bottom - top + 1) / height, key).toBeLessThan(0.75)
  }
  await readmeScreenshot(page, 'wall-macro-building-1440x900')
}

/** draws the daily tile's bar from the quote's open, high and low, and says so */
async function dailyBarFromQuote(): Promise<void> {
  await page
    .getByRole('group', { name: 'Wall interval' })
    .getByRole('button', { name: '1d' })
    .click()
  const key = 'hk:00700'
  await expect
    .poll(() => tileFigures(page, key).then((f) => f.title), { timeout: 20_000 })
    .toMatch(/today's bar from the quote's open, high and low/)
  const q = env.app.quoteOf(key)
  const f = await tileFigures(page, key)
  const rows = (await page.evaluate(candleRows(key))) as {
    top: number
    bottom: number
    height: number
  }
  if (q?.high == null || q.low == null) throw new Error('the simulator quotes HK with a day range')
  // The wick spans the quote's day range on the tile's price scale (the plot is the canvas less
  // uPlot's 6 px above and 4 px below).
  const plot = rows.height - 10
  const expected = ((q.high - q.low) / (f.yMax - f.yMin)) * plot
  expect(Math.abs(rows.bottom - rows.top + 1 - expected)).toBeLessThan(Math.max(4, expected * 0.1))
}

/** says the same on the detail chart */
async function detailChartSays(): Promise<void> {
  await page
    .getByRole('group', { name: 'Wall interval' })
    .getByRole('button', { name: '5m', exact: true })
    .click()
  await page.locator(tile('fx:EURUSD')).click()
  await expect
    .poll(() => page.getByTestId('chart-history').textContent(), { timeout: 20_000 })
    .toMatch(
      /^Building: \d+ of 60 bars since .*, from live prices \(this market has no candle endpoint\)/,
    )
  await readmeScreenshot(page, 'detail-building-1440x900')
}

/**
 * Tiles and charts honest about how much history they hold, on the Macro demo list (FX, gold, an
 * index, Hong Kong and A-shares, whose bars the app builds from live prices, and a future whose
 * bars the service sends) in real Chromium through the browser host: a tile still building says
 * so, labels its price axis, takes in the day's range from the quote, and never draws its bar
 * across its full height; the daily tile's bar is the quote's day; the detail chart says the same.
 */
describe.skipIf(!chromiumPath)('tiles and charts honest about their history (browser host)', () => {
  beforeAll(async () => {
    desk = await openDeskInChromium(chromiumPath as string, {
      context: { viewport: { width: 1440, height: 900 } },
    })
    ;({ env, page } = desk)
    await page.getByRole('tab', { name: 'Macro' }).click()
    await page.getByRole('button', { name: 'Chart wall' }).click()
    await page.locator(`${tile(BUILT[0]!)} canvas`).waitFor({ timeout: 20_000 })
  })

  afterAll(async () => {
    await desk?.close()
  })

  it(
    "labels a building tile's price axis, says how many bars of how many, and takes in the day",
    buildingTilesLabelled,
  )

  it('never draws a single bar across the full height of a tile', noBarAcrossTile)

  it(
    "draws the daily tile's bar from the quote's open, high and low, and says so",
    dailyBarFromQuote,
  )

  it('says the same on the detail chart', detailChartSays)
})
