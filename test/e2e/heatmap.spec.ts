import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { axeFindings } from './axe'
import { chromiumOrSkip } from './chromium'
import { openDeskInChromium, type DeskInChromium } from './desk-in-chromium'
import type { HostUnderTest } from './in-process-host'
import { readmeScreenshot } from './screenshots'

const chromiumPath = chromiumOrSkip()
const ADD = ['futures:ES1!', 'crypto:SOLUSDT', 'crypto:BNBUSDT', 'crypto:AVAXUSDT', 'fx:EURUSD']
const row = (key: string): string => `tbody tr[data-key="${key}"]`

const tiles = (page: Page) =>
  page.getByTestId('heat-tile').evaluateAll((ts) =>
    ts.map((t) => {
      const box = t.getBoundingClientRect()
      return {
        key: t.getAttribute('data-key') ?? '',
        step: Number(t.getAttribute('data-step')),
        figure: t.querySelector('[data-field="change"]')?.textContent ?? '',
        area: box.width * box.height,
      }
    }),
  )

const focusedKey = (page: Page): Promise<string | null> =>
  page.evaluate(`document.activeElement?.getAttribute('data-key') ?? null`)

/** "+1.25%" / "−0.40%" as a number. */
const figure = (text: string): number => Number(text.replace('−', '-').replace(/[+%]/g, ''))

let desk: DeskInChromium
let env: HostUnderTest
let page: Page
let keys: string[] = []

/** shows a tile per symbol, worded and coloured by the day's change the app holds */
async function tilesWordedAndColoured(): Promise<void> {
  await expect.poll(() => tiles(page).then((t) => t.length), { timeout: 20_000 }).toBe(keys.length)
  await expect
    .poll(() => tiles(page).then((t) => t.every((x) => x.figure !== '—')), { timeout: 20_000 })
    .toBe(true)
  for (const t of await tiles(page)) {
    const pct = env.app.quoteOf(t.key)?.changePercent ?? null
    expect(pct, t.key).not.toBeNull()
    // The quote moves on between the two reads: a tick's worth of difference, not a sign.
    expect(Math.abs(figure(t.figure) - (pct as number)), t.key).toBeLessThan(0.5)
    if (Math.abs(pct as number) > 0.6)
      expect(t.step < 5 ? -1 : 1, t.key).toBe(Math.sign(pct as number))
  }
  expect(await tiles(page).then((t) => t.map((x) => x.key))).toEqual(keys)
  await readmeScreenshot(page, 'heatmap-1440x900')
}

/** has no serious accessibility finding */
async function noAxeFinding(): Promise<void> {
  expect(await axeFindings(page, '[data-testid="heatmap"]')).toEqual([])
}

/** sizes tiles by the day's traded value, and remembers the choice */
async function sizedByTradedValue(): Promise<void> {
  await page.getByLabel('Size').selectOption('volume')
  await expect.poll(() => env.app.settings.chart.heatmap?.size, { timeout: 5000 }).toBe('volume')
  const traded = (key: string): number => {
    const q = env.app.quoteOf(key)
    return q?.quoteVolume ?? (q?.volume ?? 0) * (q?.last ?? 0)
  }
  await expect
    .poll(
      async () => {
        const t = await tiles(page)
        const byArea = [...t].sort((a, b) => b.area - a.area)[0]?.key
        const byValue = [...t].sort((a, b) => traded(b.key) - traded(a.key))[0]?.key
        return byArea === byValue
      },
      { timeout: 10_000 },
    )
    .toBe(true)
}

/** measures since a chosen moment, and says which tiles have no price then */
async function sinceAMoment(): Promise<void> {
  const colour = page.getByLabel('Colour', { exact: true })
  // The app started a moment ago: no row's history reaches an hour back, and none is shown.
  await colour.selectOption({ label: 'Change in the last 60 min' })
  await expect.poll(() => env.app.settings.chart.heatmap?.colour, { timeout: 5000 }).toBe('since')
  await expect
    .poll(() => page.getByTestId('heatmap-words').textContent(), { timeout: 10_000 })
    // An hour back from just after midnight is yesterday: the moment then carries its date.
    .toMatch(
      new RegExp(
        `^Change since ([A-Z][a-z]{2} \\d{1,2} )?\\d\\d:\\d\\d.*; \\d+ of ${keys.length} with no price then`,
      ),
    )
  const blank = (await tiles(page)).filter((t) => t.figure === '—')
  expect(blank.length).toBeGreaterThan(0)
  expect(blank.every((t) => t.step === -1)).toBe(true)
  // From this moment on: every tile has its base, and moves from about zero.
  await colour.selectOption({ label: 'Change from now on (mark this moment)' })
  await expect
    .poll(() => tiles(page).then((t) => t.every((x) => x.figure !== '—')), { timeout: 10_000 })
    .toBe(true)
  for (const t of await tiles(page)) expect(Math.abs(figure(t.figure)), t.key).toBeLessThan(5)
}

/** moves with the arrows and opens the focused tile with Enter; a click opens another */
async function arrowsEnterClick(): Promise<void> {
  await page.getByLabel('Colour', { exact: true }).selectOption('day')
  await page.getByTestId('heat-tile').first().focus()
  const first = await focusedKey(page)
  await page.keyboard.press('ArrowRight')
  const second = await focusedKey(page)
  expect(second).not.toBe(first)
  await page.keyboard.press('Enter')
  await expect
    .poll(() => page.getByTestId('detail-view').locator('h2').textContent(), { timeout: 20_000 })
    .toBe(second)
  await page.locator(`[data-testid="heat-tile"][data-key="${first}"]`).click()
  await expect
    .poll(() => page.getByTestId('detail-view').locator('h2').textContent(), { timeout: 20_000 })
    .toBe(first)
}

/** comes back as the heatmap after a reload */
async function backAfterReload(): Promise<void> {
  await page.reload()
  await page.getByTestId('connection-state').waitFor({ timeout: 20_000 })
  await expect
    .poll(() => page.getByTestId('heat-tile').count(), { timeout: 20_000 })
    .toBe(keys.length)
  expect(await page.getByRole('button', { name: 'Heatmap' }).getAttribute('aria-pressed')).toBe(
    'true',
  )
}

/**
 * The heatmap of the list in real Chromium through the browser host: a tile per symbol coloured
 * and worded by the day's change the app holds, sized by traded value, the change since a chosen
 * moment, arrows and Enter, a click, the choice remembered.
 */
describe.skipIf(!chromiumPath)('the heatmap of a list (browser host)', () => {
  beforeAll(async () => {
    desk = await openDeskInChromium(chromiumPath as string, {
      context: { viewport: { width: 1440, height: 900 } },
    })
    ;({ env, page } = desk)
    for (const key of ADD) {
      await page.getByLabel('Add symbol').fill(key)
      await page.getByRole('button', { name: 'Add', exact: true }).click()
      await page.locator(row(key)).waitFor({ timeout: 20_000 })
    }
    keys = await page
      .locator('tbody tr[data-key]')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-key') ?? ''))
    await page.getByRole('button', { name: 'Heatmap' }).click()
  })

  afterAll(async () => {
    await desk?.close()
  })

  it(
    "shows a tile per symbol, worded and coloured by the day's change the app holds",
    tilesWordedAndColoured,
  )

  it('has no serious accessibility finding', noAxeFinding)

  it("sizes tiles by the day's traded value, and remembers the choice", sizedByTradedValue)

  it('measures since a chosen moment, and says which tiles have no price then', sinceAMoment)

  it(
    'moves with the arrows and opens the focused tile with Enter; a click opens another',
    arrowsEnterClick,
  )

  it('comes back as the heatmap after a reload', backAfterReload)
})
