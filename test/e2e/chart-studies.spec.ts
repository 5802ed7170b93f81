import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AlertRule } from '../../src/shared/alerts/alert'
import { axeFindings } from './axe'
import { chromiumOrSkip } from './chromium'
import { openDeskInChromium, type DeskInChromium } from './desk-in-chromium'
import type { HostUnderTest } from './in-process-host'
import { readmeScreenshot } from './screenshots'

const chromiumPath = chromiumOrSkip()
const KEY = 'futures:ES1!'
const OTHER = 'futures:NQ1!'
const row = (key: string): string => `tbody tr[data-key="${key}"]`

/**
 * Pixels of a canvas under `selector` painted in one colour (rgb, within a small tolerance): the
 * lines uPlot drew, seen from outside.
 */
const colourPixels = (selector: string, rgb: [number, number, number]): string => `(() => {
  const canvas = document.querySelector(${JSON.stringify(selector)} + ' canvas')
  const ctx = canvas && canvas.getContext('2d')
  if (!ctx) return -1
  const [r, g, b] = ${JSON.stringify(rgb)}
  const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data
  let n = 0
  for (let i = 0; i < data.length; i += 4)
    if (data[i + 3] > 200 && Math.abs(data[i] - r) + Math.abs(data[i + 1] - g) + Math.abs(data[i + 2] - b) < 30) n++
  return n
})()`
const EMA_RGB: [number, number, number] = [0xd0, 0x87, 0x00]
const RSI_RGB: [number, number, number] = [0x8e, 0x44, 0xad]

async function addSymbol(page: Page, key: string): Promise<void> {
  await page.getByLabel('Add symbol').fill(key)
  await page.getByRole('button', { name: 'Add', exact: true }).click()
  await page.locator(row(key)).waitFor({ timeout: 20_000 })
}

async function openDetail(page: Page): Promise<void> {
  await page.locator(`${row(KEY)} th button`).click()
  await expect
    .poll(() => page.getByTestId('detail-view').locator('h2').textContent(), { timeout: 20_000 })
    .toBe(KEY)
  await expect
    .poll(() => page.getByTestId('candle-chart').getAttribute('data-bars'), { timeout: 20_000 })
    .not.toBe('0')
}

async function addIndicator(page: Page, kind: 'EMA' | 'SMA' | 'RSI', period: number) {
  const form = page.getByRole('form', { name: 'Add an indicator' })
  await form.getByLabel('Indicator').selectOption({ label: kind })
  await form.getByLabel('Period').fill(String(period))
  await form.getByRole('button', { name: 'Add indicator' }).click()
}

const series = (page: Page): Promise<string | null> =>
  page.getByTestId('candle-chart').getAttribute('data-series')

function rulesOn(env: HostUnderTest): AlertRule[] {
  return env.app.rules.filter((r) => r.key === KEY)
}
const levelOf = (r: AlertRule | undefined): number | null =>
  r && 'price' in r.condition ? r.condition.price : null

describe.skipIf(!chromiumPath)('detail chart indicators and alert lines (browser host)', () => {
  let desk: DeskInChromium
  let env: HostUnderTest
  let page: Page
  let candleRequests = 0

  beforeAll(async () => {
    desk = await openDeskInChromium(chromiumPath as string, {
      context: { viewport: { width: 1400, height: 1300 } },
      beforeLoad: (p) =>
        p.on('websocket', (ws) =>
          ws.on('framesent', (f) => {
            if (String(f.payload).includes('"getCandles"')) candleRequests++
          }),
        ),
    })
    ;({ env, page } = desk)
    await addSymbol(page, KEY)
  })

  afterAll(async () => {
    await desk?.close()
  })

  it('adds an EMA and RSI from the keyboard-operable form and draws them with uPlot', async () => {
    await openDetail(page)
    const before = candleRequests
    await addIndicator(page, 'EMA', 20)
    await addIndicator(page, 'RSI', 14)
    await expect.poll(() => series(page), { timeout: 5000 }).toBe('EMA 20')
    // The legend names the line; its colour is on the price canvas.
    await expect
      .poll(() =>
        page.locator('[data-testid="candle-chart"] .u-legend .u-series th').allTextContents(),
      )
      .toContain('EMA 20')
    await expect
      .poll(() => page.evaluate<number>(colourPixels('[data-testid="candle-chart"]', EMA_RGB)))
      .toBeGreaterThan(100)
    const rsi = page.getByTestId('rsi-pane')
    await expect.poll(() => rsi.getAttribute('data-points'), { timeout: 5000 }).not.toBe(null)
    const bars = Number(await page.getByTestId('candle-chart').getAttribute('data-bars'))
    expect(Number(await rsi.getAttribute('data-points'))).toBe(bars - 14)
    const last = Number(await rsi.getAttribute('data-last'))
    expect(last).toBeGreaterThanOrEqual(0)
    expect(last).toBeLessThanOrEqual(100)
    await expect
      .poll(() => page.evaluate<number>(colourPixels('[data-testid="rsi-pane"]', RSI_RGB)))
      .toBeGreaterThan(100)
    // The RSI pane's plot lies exactly under the price plot (same left edge, same width), and
    // it is made once, not again on each live bar.
    const pane = await rsi.locator('.uplot').elementHandle()
    await page.waitForTimeout(1500)
    expect(await pane!.evaluate((e) => e.isConnected)).toBe(true)
    const [mainOver, rsiOver] = await Promise.all([
      page.locator('[data-testid="candle-chart"] .u-over').boundingBox(),
      page.locator('[data-testid="rsi-pane"] .u-over').boundingBox(),
    ])
    expect(Math.abs(mainOver!.x - rsiOver!.x)).toBeLessThan(1)
    expect(Math.abs(mainOver!.width - rsiOver!.width)).toBeLessThan(1)
    // Drawn from the bars already fetched: no candle request for the indicators.
    expect(candleRequests - before).toBe(0)
  })

  it('compares a second symbol with one more candle request, on a percent axis', async () => {
    const before = candleRequests
    const form = page.getByRole('form', { name: 'Compare with another symbol' })
    await form.getByLabel('Compare with').fill(OTHER)
    await form.getByRole('button', { name: 'Compare' }).click()
    await expect.poll(() => series(page), { timeout: 20_000 }).toBe(`EMA 20|${OTHER} %`)
    expect(candleRequests - before).toBe(1)
    await page.getByRole('button', { name: `Remove vs ${OTHER}` }).click()
    await expect.poll(() => series(page)).toBe('EMA 20')
  })

  it('remembers the indicators for the symbol: closed, reloaded and reopened', async () => {
    await expect
      .poll(() => env.app.settings.chart.studies[KEY], { timeout: 5000 })
      .toMatchObject({ ema: [20], rsi: 14, compare: null })
    await page.keyboard.press('Escape')
    await page.reload()
    await page.getByTestId('connection-state').waitFor({ timeout: 20_000 })
    await openDetail(page)
    await expect.poll(() => series(page), { timeout: 5000 }).toBe('EMA 20')
    await page.getByTestId('rsi-pane').waitFor({ timeout: 5000 })
    await page.getByRole('button', { name: 'Remove EMA 20' }).waitFor()
  })

  it('has no serious accessibility finding in the detail view with indicators', async () => {
    const findings = await axeFindings(page, '[data-testid="detail-view"]')
    expect(findings).toEqual([])
  })

  it('creates an alert line with "a" on the chart, at the last price', async () => {
    await page.getByTestId('candle-chart').focus()
    await page.keyboard.press('a')
    const form = page.getByRole('form', { name: 'Alert at a price' })
    const price = form.getByLabel('Price', { exact: true })
    expect(await page.evaluate(`document.activeElement?.getAttribute('name')`)).toBe('price')
    const prefilled = Number(await price.inputValue())
    expect(prefilled).toBeGreaterThan(1000)
    await page.keyboard.press('Enter')
    await expect.poll(() => rulesOn(env).length, { timeout: 5000 }).toBe(1)
    expect(levelOf(rulesOn(env)[0])).toBe(prefilled)
    const line = page.getByTestId('alert-line')
    // An "above" alert at the last price fires on the next uptick, which on a loaded machine can
    // come before the line is looked at: the line must show the rule's real state, armed unless
    // the app has fired it.
    const id = rulesOn(env)[0]!.id
    const fired = (): boolean => env.app.snapshot().alertHistory.some((f) => f.ruleId === id)
    await expect
      .poll(async () => {
        const shown = await line.getAttribute('data-status')
        return shown === (fired() ? 'triggered' : 'armed')
      })
      .toBe(true)
    expect(Number(await line.getAttribute('data-price'))).toBe(prefilled)
    await expect.poll(() => form.count()).toBe(0)
  })

  it('drags the line and the rule level moves with it, to where it was let go', async () => {
    const before = levelOf(rulesOn(env)[0])!
    const line = page.getByTestId('alert-line')
    const box = (await line.boundingBox())!
    const over = (await page.locator('[data-testid="candle-chart"] .u-over').boundingBox())!
    // 40 px towards the side with room: past the plot's edge the line would be pinned there.
    const up = box.y - over.y > over.y + over.height - box.y
    const dy = up ? -40 : 40
    const x = box.x + box.width * 0.3
    const y = box.y + box.height / 2
    await page.mouse.move(x, y)
    await page.mouse.down()
    await page.mouse.move(x, y + dy / 2, { steps: 4 })
    await page.mouse.move(x, y + dy, { steps: 4 })
    await page.mouse.up()
    // On a loaded machine a pause mid-drag may send an intermediate level first: wait for the
    // level where the line was let go (live bars may nudge the y scale by a pixel or two).
    const settled = async (): Promise<string> => {
      const level = levelOf(rulesOn(env)[0])!
      const shown = Number(await line.getAttribute('data-price'))
      const at = (await line.boundingBox())!.y
      const moved = up ? level > before : level < before
      return moved && shown === level && Math.abs(at - (box.y + dy)) < 6
        ? 'let go there'
        : `level ${level} (was ${before}), line at ${shown}, y ${at} vs ${box.y + dy}`
    }
    await expect.poll(settled, { timeout: 10_000 }).toBe('let go there')
    // Still the same rule: moved, not replaced.
    expect(rulesOn(env)).toHaveLength(1)
  })

  it('moves the line with the arrow keys on its label', async () => {
    const before = levelOf(rulesOn(env)[0])!
    await page.getByRole('slider', { name: /^Alert above/ }).focus()
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('Enter')
    await expect.poll(() => levelOf(rulesOn(env)[0]), { timeout: 5000 }).toBeLessThan(before)
  })

  it('adds an alert below a right-clicked price from the chart menu', async () => {
    const over = (await page.locator('[data-testid="candle-chart"] .u-over').boundingBox())!
    await page.mouse.click(over.x + over.width * 0.4, over.y + over.height * 0.8, {
      button: 'right',
    })
    const item = page.getByRole('menuitem', { name: /^Alert below / })
    await item.waitFor({ timeout: 5000 })
    const shown = Number((await item.textContent())!.replace('Alert below ', ''))
    await item.click()
    await expect.poll(() => rulesOn(env).length, { timeout: 5000 }).toBe(2)
    const below = rulesOn(env).find((r) => r.condition.kind === 'below')
    expect(levelOf(below)).toBe(shown)
    await expect.poll(() => page.getByTestId('alert-line').count()).toBe(2)
    expect(await axeFindings(page, '[data-testid="detail-view"]')).toEqual([])
    await readmeScreenshot(page.getByTestId('detail-view'), 'detail-indicators')
  })

  it('shows a line as triggered once its alert fires (crypto, open all hours)', async () => {
    await page.keyboard.press('Escape')
    await addSymbol(page, 'crypto:BTCUSDT')
    await page.locator(`${row('crypto:BTCUSDT')} th button`).click()
    await expect
      .poll(() => page.getByTestId('detail-view').locator('h2').textContent(), { timeout: 20_000 })
      .toBe('crypto:BTCUSDT')
    const over = page.locator('[data-testid="candle-chart"] .u-over')
    await expect.poll(async () => (await over.boundingBox())?.height ?? 0).toBeGreaterThan(50)
    const box = (await over.boundingBox())!
    // Near the bottom of the price range: "above" that level holds at the next fresh quote.
    await page.mouse.click(box.x + box.width / 2, box.y + box.height * 0.97, { button: 'right' })
    await page.getByRole('menuitem', { name: /^Alert above / }).click()
    const line = page.locator('[data-testid="alert-line"]')
    await expect.poll(() => line.count(), { timeout: 5000 }).toBe(1)
    await expect.poll(() => line.getAttribute('data-status'), { timeout: 20_000 }).toBe('triggered')
    expect(await line.locator('[role="slider"]').getAttribute('aria-label')).toMatch(
      /^Alert above [\d.]+, triggered\./,
    )
  })

  it('arms a fired line again when it is dragged to a new level, as a chart alert line is', async () => {
    const line = page.locator('[data-testid="alert-line"]')
    const rule = env.app.rules.find((r) => r.key === 'crypto:BTCUSDT')!
    const before = levelOf(rule)!
    const box = (await line.boundingBox())!
    const over = (await page.locator('[data-testid="candle-chart"] .u-over').boundingBox())!
    const x = box.x + box.width * 0.3
    const y = box.y + box.height / 2
    // To the top of the plot (a line dragged past the edge stays there): above the price.
    await page.mouse.move(x, y)
    await page.mouse.down()
    await page.mouse.move(x, over.y + over.height / 2, { steps: 4 })
    await page.mouse.move(x, over.y - 20, { steps: 4 })
    await page.mouse.up()
    const current = (): AlertRule | undefined => env.app.rules.find((r) => r.id === rule.id)
    await expect.poll(() => levelOf(current()), { timeout: 10_000 }).toBeGreaterThan(before)
    const last = env.app.feed.engine.quotes.get('crypto:BTCUSDT')?.last ?? Infinity
    expect(levelOf(current())).toBeGreaterThan(last)
    await expect.poll(() => line.getAttribute('data-status'), { timeout: 5_000 }).toBe('armed')
    expect(await line.locator('[role="slider"]').getAttribute('aria-label')).toMatch(
      /^Alert above [\d.]+, armed\./,
    )
  })
})
