import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AlertRule } from '../../src/shared/alerts/alert'
import type { Drawing } from '../../src/shared/drawings/drawing'
import { axeFindings } from './axe'
import { chromiumOrSkip } from './chromium'
import { openDeskInChromium, type DeskInChromium } from './desk-in-chromium'
import type { HostUnderTest } from './in-process-host'
import { readmeScreenshot } from './screenshots'

const chromiumPath = chromiumOrSkip()
const KEY = 'futures:ES1!'
const row = (key: string): string => `tbody tr[data-key="${key}"]`

let desk: DeskInChromium
let env: HostUnderTest
let page: Page

/** The drawings the app keeps for the chart (what drawings.json holds), through its command. */
async function saved(env: HostUnderTest, family = 'intraday'): Promise<Drawing[]> {
  const out = await env.app.invoke('getDrawings', { keys: [KEY], family })
  return out.ok ? ((out.result as Array<{ drawings: Drawing[] }>)[0]?.drawings ?? []) : []
}

const drawingRules = (env: HostUnderTest): AlertRule[] =>
  env.app.rules.filter((r) => r.key === KEY && r.condition.kind === 'lineCross')

/** Opens the symbol's detail chart and waits for its bars. */
async function openChart(page: Page): Promise<void> {
  await page.locator(`${row(KEY)} th button`).click()
  await page.waitForFunction(
    () =>
      (document.querySelector('[data-testid="candle-chart"]')?.getAttribute('data-bars') ?? '0') !==
      '0',
    null,
    { timeout: 20_000 },
  )
}

/** The plot area's box on the page: where uPlot's overlay is. */
async function plotBox(
  page: Page,
): Promise<{ x: number; y: number; width: number; height: number }> {
  const box = await page.locator('[data-testid="candle-chart"] .u-over').boundingBox()
  if (box === null) throw new Error('no plot')
  return box
}

/** draws a trend line by dragging across the chart with the Trend line tool */
async function drawsTrendByDragging(): Promise<void> {
  const tools = page.getByRole('toolbar', { name: 'Drawing tools' })
  await tools.getByRole('button', { name: 'Trend line' }).click()
  const box = await plotBox(page)
  await page.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.7)
  await page.mouse.down()
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.5, { steps: 5 })
  await page.mouse.move(box.x + box.width * 0.7, box.y + box.height * 0.3, { steps: 5 })
  await page.mouse.up()
  await expect.poll(() => saved(env).then((d) => d.length), { timeout: 10_000 }).toBe(1)
  const [d] = await saved(env)
  expect(d?.kind === 'line' && d.line.shape).toBe('trend')
  if (d?.kind !== 'line' || d.line.shape !== 'trend') return
  expect(d.line.b.t).toBeGreaterThan(d.line.a.t)
  expect(d.line.b.price).toBeGreaterThan(d.line.a.price)
  // The tool goes back to Select, and the line is on the page where it was drawn.
  expect(await tools.getByRole('button', { name: 'Select' }).getAttribute('aria-pressed')).toBe(
    'true',
  )
  await expect.poll(() => page.getByTestId('drawing').count()).toBe(1)
}

/** stays on its prices and moments when the interval changes within its family */
async function staysWithinFamily(): Promise<void> {
  const before = await page.getByTestId('drawing').getAttribute('aria-label')
  await page.getByRole('group', { name: 'Interval' }).getByRole('button', { name: '15m' }).click()
  await expect.poll(() => page.getByTestId('drawing').count(), { timeout: 10_000 }).toBe(1)
  expect(await page.getByTestId('drawing').getAttribute('aria-label')).toBe(before)
  await page.getByRole('group', { name: 'Interval' }).getByRole('button', { name: '1d' }).click()
  await expect.poll(() => page.getByTestId('drawing').count(), { timeout: 10_000 }).toBe(0)
  await page.getByRole('group', { name: 'Interval' }).getByRole('button', { name: '1h' }).click()
  await expect.poll(() => page.getByTestId('drawing').count(), { timeout: 10_000 }).toBe(1)
}

/** places a horizontal line with the keyboard, moves it with the arrows and undoes the move */
async function placesWithKeyboard(): Promise<void> {
  await page.getByTestId('candle-chart').focus()
  await page.keyboard.press('d')
  await page.keyboard.press('ArrowRight') // Select -> Horizontal line
  await page.keyboard.press('Enter')
  await expect.poll(() => saved(env).then((d) => d.length), { timeout: 10_000 }).toBe(2)
  const focused = (): Promise<string | null> =>
    page.evaluate(() => document.activeElement?.getAttribute('data-kind') ?? null)
  expect(await focused()).toBe('hline')
  const price = async (): Promise<number> => {
    const d = (await saved(env)).find((x) => x.kind === 'line' && x.line.shape === 'hline')
    return d?.kind === 'line' && d.line.shape === 'hline' ? d.line.price : Number.NaN
  }
  const placed = await price()
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowUp')
  await expect.poll(price, { timeout: 10_000 }).toBeGreaterThan(placed)
  // Presses close together are one move and one undo step; under load they may reach the page
  // far enough apart to settle as two or three. Each undo steps back one settled move, and at
  // most three bring the line back to where it was placed.
  for (let undos = 0; undos < 3 && (await price()) !== placed; undos++) {
    const before = await price()
    await page.keyboard.press('Control+z')
    await expect.poll(price, { timeout: 10_000 }).toBeLessThan(before)
  }
  expect(await price()).toBe(placed)
}

/** moves the selected point of the trend line with the arrow keys */
async function movesAPoint(): Promise<void> {
  const trend = page.locator('[data-testid="drawing"][data-kind="trend"]')
  await trend.focus()
  await page.keyboard.press('Tab') // to its first point
  expect(await page.evaluate(() => document.activeElement?.getAttribute('data-anchor'))).toBe('a')
  const before = (await saved(env)).find((x) => x.kind === 'line' && x.line.shape === 'trend')
  await page.keyboard.press('Shift+ArrowDown')
  await expect
    .poll(
      async () => {
        const d = (await saved(env)).find((x) => x.kind === 'line' && x.line.shape === 'trend')
        return d?.kind === 'line' && d.line.shape === 'trend' ? d.line.a.price : null
      },
      { timeout: 10_000 },
    )
    .toBeLessThan(
      before?.kind === 'line' && before.line.shape === 'trend' ? before.line.a.price : 0,
    )
  const after = (await saved(env)).find((x) => x.kind === 'line' && x.line.shape === 'trend')
  expect(after?.kind === 'line' && after.line.shape === 'trend' && after.line.b).toEqual(
    before?.kind === 'line' && before.line.shape === 'trend' && before.line.b,
  )
}

/** sets an alert on the focused trend line with A, worded with the line; the alert follows the line */
async function alertFollowsLine(): Promise<void> {
  await page.locator('[data-testid="drawing"][data-kind="trend"]').focus()
  await page.keyboard.press('a')
  const form = page.getByRole('form', { name: 'Alert on a drawing' })
  await expect
    .poll(() => form.getByTestId('drawing-alert-where').textContent())
    .toMatch(/^your trend line \(now at [\d.]+\)$/)
  await form.getByRole('button', { name: 'Create alert' }).click()
  await expect.poll(() => drawingRules(env).length, { timeout: 10_000 }).toBe(1)
  await expect
    .poll(() =>
      page.locator('[data-testid="drawing"][data-kind="trend"]').getAttribute('data-alert'),
    )
    .toBe('armed')
  const line = drawingRules(env)[0]?.condition
  await page.locator('[data-testid="drawing"][data-kind="trend"]').focus()
  await page.keyboard.press('Shift+ArrowUp')
  await expect
    .poll(() => JSON.stringify(drawingRules(env)[0]?.condition), { timeout: 10_000 })
    .not.toBe(JSON.stringify(line))
  const rule = drawingRules(env)[0]
  const now = (await saved(env)).find((x) => x.kind === 'line' && x.line.shape === 'trend')
  expect(rule?.condition.kind === 'lineCross' && rule.condition.line).toEqual(
    now?.kind === 'line' && now.line,
  )
}

/** draws a price range with two clicks and sets an alert on it from its menu */
async function rangeWithMenuAlert(): Promise<void> {
  await page
    .getByRole('toolbar', { name: 'Drawing tools' })
    .getByRole('button', { name: 'Price range' })
    .click()
  const box = await plotBox(page)
  await page.mouse.click(box.x + box.width * 0.55, box.y + box.height * 0.35)
  await page.mouse.click(box.x + box.width * 0.9, box.y + box.height * 0.6)
  const range = page.locator('[data-testid="drawing"][data-kind="range"]')
  await expect.poll(() => range.count(), { timeout: 10_000 }).toBe(1)
  await range.click({ button: 'right', position: { x: 20, y: 20 } })
  await page.getByRole('menuitem', { name: /^Alert when price enters it/ }).click()
  await expect
    .poll(() => env.app.rules.filter((r) => r.condition.kind === 'rangeCross').length, {
      timeout: 10_000,
    })
    .toBe(1)
  const rule = env.app.rules.find((r) => r.condition.kind === 'rangeCross')
  const d = (await saved(env)).find((x) => x.kind === 'range')
  expect(rule?.condition.kind === 'rangeCross' && rule.condition.range).toEqual(
    d?.kind === 'range' && d.range,
  )
  // Armed, or fired already: the range was drawn around the prices the chart shows.
  await expect.poll(() => range.getAttribute('data-alert')).toMatch(/^(armed|triggered)$/)
  await readmeScreenshot(page.getByTestId('detail-view'), 'chart-drawings')
}

/** has no serious accessibility finding on the chart with drawings */
async function noAxeFinding(): Promise<void> {
  expect(await axeFindings(page, '[data-testid="detail-view"]')).toEqual([])
}

/** removes a drawing with Delete, and its alert with it */
async function deleteRemovesAlert(): Promise<void> {
  await page.locator('[data-testid="drawing"][data-kind="trend"]').focus()
  await page.keyboard.press('Delete')
  await expect.poll(() => drawingRules(env).length, { timeout: 10_000 }).toBe(0)
  expect((await saved(env)).map((d) => (d.kind === 'line' ? d.line.shape : d.kind))).toEqual([
    'hline',
    'range',
  ])
  await expect
    .poll(() => page.getByRole('status').filter({ hasText: 'removed with the drawing' }).count())
    .toBe(1)
}

/** keeps the drawings for the next visit (the data folder, not the page) */
async function keptForNextVisit(): Promise<void> {
  await page.reload()
  await page.getByTestId('connection-state').waitFor({ timeout: 20_000 })
  await openChart(page)
  await expect.poll(() => page.getByTestId('drawing').count(), { timeout: 20_000 }).toBe(2)
  await expect
    .poll(() =>
      page.locator('[data-testid="drawing"][data-kind="range"]').getAttribute('data-alert'),
    )
    .toMatch(/^(armed|triggered)$/)
}

/**
 * Drawings on the detail chart in real Chromium through the browser host: a trend line drawn by
 * dragging, a horizontal line placed and moved with the keyboard, undo, an alert on the drawing
 * that follows it when moved, and drawings kept in the data folder for the next visit.
 */
describe.skipIf(!chromiumPath)('drawing on the detail chart (browser host)', () => {
  beforeAll(async () => {
    desk = await openDeskInChromium(chromiumPath as string, {
      context: { viewport: { width: 1400, height: 1100 } },
    })
    ;({ env, page } = desk)
    await page.getByLabel('Add symbol').fill(KEY)
    await page.getByRole('button', { name: 'Add', exact: true }).click()
    await page.locator(row(KEY)).waitFor({ timeout: 20_000 })
    await openChart(page)
  })

  afterAll(async () => {
    await desk?.close()
  })

  it(
    'draws a trend line by dragging across the chart with the Trend line tool',
    drawsTrendByDragging,
  )

  it(
    'stays on its prices and moments when the interval changes within its family',
    staysWithinFamily,
  )

  it(
    'places a horizontal line with the keyboard, moves it with the arrows and undoes the move',
    placesWithKeyboard,
  )

  it('moves the selected point of the trend line with the arrow keys', movesAPoint)

  it(
    'sets an alert on the focused trend line with A, worded with the line; the alert follows the line',
    alertFollowsLine,
  )

  it(
    'draws a price range with two clicks and sets an alert on it from its menu',
    rangeWithMenuAlert,
  )

  it('has no serious accessibility finding on the chart with drawings', noAxeFinding)

  it('removes a drawing with Delete, and its alert with it', deleteRemovesAlert)

  it('keeps the drawings for the next visit (the data folder, not the page)', keptForNextVisit)
})
