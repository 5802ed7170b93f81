import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromiumOrSkip } from './chromium'
import { openDeskInChromium, type DeskInChromium } from './desk-in-chromium'
import type { HostUnderTest } from './in-process-host'
import { readmeScreenshot } from './screenshots'

const chromiumPath = chromiumOrSkip()

const row = (key: string): string => `tbody tr[data-key="${key}"]`

async function addSymbol(page: Page, key: string): Promise<void> {
  if ((await page.locator(row(key)).count()) > 0) return
  await page.getByLabel('Add symbol').fill(key)
  await page.getByRole('button', { name: 'Add', exact: true }).click()
  await page.locator(row(key)).waitFor({ timeout: 20_000 })
}

/**
 * Pixels of the chart canvas painted in the theme's up or down colour (candle bodies and wicks;
 * the canvas is transparent, so antialiased edges keep the colour with a lower alpha).
 */
// Runs in the page (a string: this file is type-checked without the DOM library).
const CANDLE_PIXELS = `(() => {
  const host = document.querySelector('[data-testid="candle-chart"]')
  const canvas = host && host.querySelector('canvas')
  const ctx = canvas && canvas.getContext('2d')
  if (!ctx) return -1
  const probe = document.createElement('canvas').getContext('2d')
  const rgb = (name) => {
    probe.fillStyle = getComputedStyle(host).getPropertyValue(name).trim()
    probe.fillRect(0, 0, 1, 1)
    return [...probe.getImageData(0, 0, 1, 1).data.slice(0, 3)]
  }
  const colours = [rgb('--up'), rgb('--down')]
  const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data
  let n = 0
  for (let i = 0; i < data.length; i += 4)
    for (const [r, g, b] of colours)
      if (data[i + 3] > 0 && Math.abs(data[i] - r) + Math.abs(data[i + 1] - g) + Math.abs(data[i + 2] - b) < 12) n++
  return n
})()`

async function candlePixels(page: Page): Promise<number> {
  return page.evaluate<number>(CANDLE_PIXELS)
}

const focused = (page: Page, what: 'id' | 'tagName' | 'name'): Promise<unknown> =>
  page.evaluate(
    what === 'name'
      ? `document.activeElement?.getAttribute('name')`
      : `document.activeElement?.${what}`,
  )

async function xRange(page: Page): Promise<{ min: number; max: number }> {
  const chart = page.getByTestId('candle-chart')
  return {
    min: Number(await chart.getAttribute('data-x-min')),
    max: Number(await chart.getAttribute('data-x-max')),
  }
}

async function selectedKey(page: Page): Promise<string | null> {
  return page.locator('tbody tr[aria-selected="true"]').first().getAttribute('data-key')
}

describe.skipIf(!chromiumPath)('detail chart and keyboard in Chromium (browser host)', () => {
  let desk: DeskInChromium
  let env: HostUnderTest
  let page: Page

  beforeAll(async () => {
    desk = await openDeskInChromium(chromiumPath as string, {
      context: { viewport: { width: 1600, height: 900 } },
    })
    ;({ env, page } = desk)
    await addSymbol(page, 'futures:ES1!')
    await addSymbol(page, 'crypto:BTCUSDT')
  })

  afterAll(async () => {
    await desk?.close()
  })

  it('opens futures:ES1! by clicking its symbol and draws REST candles on a canvas', async () => {
    await page.locator(`${row('futures:ES1!')} th button`).click()
    const detail = page.getByTestId('detail-view')
    await expect
      .poll(() => detail.locator('h2').textContent(), { timeout: 20_000 })
      .toBe('futures:ES1!')
    const chart = page.getByTestId('candle-chart')
    await expect.poll(() => chart.getAttribute('data-bars'), { timeout: 20_000 }).not.toBe('0')
    await expect.poll(() => candlePixels(page), { timeout: 10_000 }).toBeGreaterThan(50)
    await readmeScreenshot(detail, 'detail')
  })

  it('loads other candles when the interval changes', async () => {
    await expect.poll(async () => (await xRange(page)).max, { timeout: 10_000 }).toBeGreaterThan(0)
    const hourly = await xRange(page)
    await page
      .getByRole('group', { name: 'Interval' })
      .getByRole('button', { name: '1d', exact: true })
      .click()
    await expect
      .poll(async () => (await xRange(page)).max - (await xRange(page)).min, { timeout: 20_000 })
      .toBeGreaterThan((hourly.max - hourly.min) * 5)
    await page
      .getByRole('group', { name: 'Interval' })
      .getByRole('button', { name: '1h', exact: true })
      .click()
    await expect
      .poll(async () => (await xRange(page)).max - (await xRange(page)).min, { timeout: 20_000 })
      .toBeLessThan((hourly.max - hourly.min) * 2)
  })

  it('shows O/H/L/C values in the legend under the crosshair', async () => {
    const over = page.locator('[data-testid="candle-chart"] .u-over')
    const box = (await over.boundingBox())!
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.5)
    const values = page.locator('[data-testid="candle-chart"] .u-legend .u-series .u-value')
    await expect
      .poll(async () => (await values.allTextContents()).slice(1, 5).join(' '), { timeout: 5000 })
      .toMatch(/^[\d.,]+ [\d.,]+ [\d.,]+ [\d.,]+$/)
    const [open, high, low] = (await values.allTextContents())
      .slice(1, 4)
      .map((t) => Number(t.replace(/,/g, '')))
    expect(high).toBeGreaterThanOrEqual(Math.max(open!, low!))
  })

  it('zooms into a dragged range and resets to the whole history', async () => {
    const full = await xRange(page)
    const over = page.locator('[data-testid="candle-chart"] .u-over')
    const box = (await over.boundingBox())!
    const y = box.y + box.height / 2
    await page.mouse.move(box.x + box.width * 0.3, y)
    await page.mouse.down()
    await page.mouse.move(box.x + box.width * 0.5, y, { steps: 5 })
    await page.mouse.move(box.x + box.width * 0.6, y, { steps: 5 })
    await page.mouse.up()
    const zoomed = await xRange(page)
    expect(zoomed.min).toBeGreaterThan(full.min)
    expect(zoomed.max).toBeLessThan(full.max)
    await page.getByRole('button', { name: 'Reset zoom' }).click()
    const reset = await xRange(page)
    expect(reset.max - reset.min).toBeGreaterThanOrEqual((full.max - full.min) * 0.99)
  })

  it('closes the detail with Escape', async () => {
    await page.mouse.move(0, 0)
    await page.keyboard.press('Escape')
    await expect.poll(() => page.getByTestId('detail-view').count()).toBe(0)
  })

  it('draws candles built from ticks for a crypto symbol opened with Enter', async () => {
    await page.locator(`${row('crypto:BTCUSDT')} td[data-field="last"]`).click()
    expect(await selectedKey(page)).toBe('crypto:BTCUSDT')
    await page.keyboard.press('Enter')
    await expect
      .poll(() => page.getByTestId('detail-view').locator('h2').textContent(), { timeout: 20_000 })
      .toBe('crypto:BTCUSDT')
    await page
      .getByRole('group', { name: 'Interval' })
      .getByRole('button', { name: '1m', exact: true })
      .click()
    await expect
      .poll(() => page.getByTestId('candle-chart').getAttribute('data-bars'), { timeout: 20_000 })
      .not.toBe('0')
    await expect.poll(() => candlePixels(page), { timeout: 10_000 }).toBeGreaterThan(10)
    await page.keyboard.press('Escape')
    await expect.poll(() => page.getByTestId('detail-view').count()).toBe(0)
  })

  it('moves the selection with arrows and j/k', async () => {
    const keys = await page
      .locator('tbody tr[data-key]')
      .evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-key')))
    await page.locator(`${row(keys[0]!)} td[data-field="last"]`).click()
    await page.keyboard.press('ArrowDown')
    expect(await selectedKey(page)).toBe(keys[1])
    await page.keyboard.press('j')
    expect(await selectedKey(page)).toBe(keys[2])
    await page.keyboard.press('k')
    expect(await selectedKey(page)).toBe(keys[1])
    await page.keyboard.press('ArrowUp')
    expect(await selectedKey(page)).toBe(keys[0])
  })

  it('focuses the add field with "/" and gives the keys back with Escape', async () => {
    await page.keyboard.press('/')
    expect(await focused(page, 'id')).toBe('add-symbol-input')
    await page.keyboard.type('j')
    expect(await page.getByLabel('Add symbol').inputValue()).toBe('j')
    await page.getByLabel('Add symbol').fill('')
    await page.keyboard.press('Escape')
    expect(await focused(page, 'tagName')).toBe('BODY')
  })

  it('opens the alert form for the selected row with "a"', async () => {
    await page.locator(`${row('futures:ES1!')} td[data-field="last"]`).click()
    await page.keyboard.press('a')
    const form = page.getByRole('form', { name: 'New alert' })
    expect(await form.locator('[name="key"]').inputValue()).toBe('futures:ES1!')
    expect(await focused(page, 'name')).toBe('value')
    await page.keyboard.press('Escape')
    expect(await focused(page, 'tagName')).toBe('BODY')
  })

  it('pins the selected row to the tray with its pin toggle, max 10', async () => {
    const pin = page.getByRole('button', { name: 'Pin futures:ES1! to the tray' })
    await pin.click()
    await expect.poll(() => pin.getAttribute('aria-pressed')).toBe('true')
    await expect.poll(() => env.app.trayQuotes().map((q) => q.key)).toContain('futures:ES1!')
    await pin.click()
    await expect.poll(() => pin.getAttribute('aria-pressed')).toBe('false')
  })

  it('draws each row action’s icon, the star filled while pinned', async () => {
    const actions = page.locator(`${row('futures:ES1!')} td.actions button`)
    // The icon is the button's masked background: the path in the mask image, decoded.
    const drawn = (): Promise<Array<{ action: string; path: string; fill: string }>> =>
      actions.evaluateAll((buttons) =>
        buttons.map((b) => {
          const image = getComputedStyle(b).maskImage
          const svg = decodeURIComponent(/data:image\/svg\+xml,([^")]*)/.exec(image)?.[1] ?? '')
          const path = new DOMParser().parseFromString(svg, 'image/svg+xml').querySelector('path')
          return {
            action: (b as HTMLElement).dataset.action ?? '',
            path: path?.getAttribute('d') ?? '',
            fill: path?.getAttribute('fill') ?? '',
          }
        }),
      )
    const before = await drawn()
    expect(before.map((b) => [b.action, b.path === '' ? 'no icon' : b.fill])).toEqual([
      ['pin', 'none'],
      ['alert', 'none'],
      ['remove', 'none'],
    ])
    expect(new Set(before.map((b) => b.path)).size).toBe(3)
    const pin = page.getByRole('button', { name: 'Pin futures:ES1! to the tray' })
    await pin.click()
    await expect.poll(async () => (await drawn())[0]?.fill).toBe('black')
    expect((await drawn())[0]?.path).toBe(before[0]?.path)
    await pin.click()
    await expect.poll(async () => (await drawn())[0]?.fill).toBe('none')
  })

  it('removes the selected row with Delete', async () => {
    await page.locator(`${row('futures:ES1!')} td[data-field="last"]`).click()
    await page.keyboard.press('Delete')
    await expect.poll(() => page.locator(row('futures:ES1!')).count()).toBe(0)
  })
})
