import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_COLUMNS, GRID_COLUMNS } from '../../src/shared/grid'
import { figure, spills } from './cell-boxes'
import { chromiumOrSkip } from './chromium'
import { openDeskInChromium, type DeskInChromium } from './desk-in-chromium'
import { startFixedQuoteService, type FixedQuoteService } from './fixed-quote-service'
import type { HostUnderTest } from './in-process-host'
import { watchPage } from './page-watch'
import { readmeScreenshot } from './screenshots'

const chromiumPath = chromiumOrSkip()

/** Figures at both ends of what a market can show, for every field of the spec's TickerQuote. */
const QUOTES = {
  BIGUSDT: {
    last: 123_456_789.12,
    change: 12_345_678.91,
    changePercent: 11.11,
    open: 111_111_110.21,
    prevClose: 111_110_110.21,
    high: 123_999_999.99,
    low: 99_999_999.99,
    volume: 98_765_432_109,
    quoteVolume: 1.2e16,
    trades: 123_456_789,
    bid: 123_456_789.11,
    ask: 123_456_789.13,
    bidSize: 12_345_678.9,
    askSize: 9_876_543.21,
  },
  TWENTYMUSDT: {
    last: 20_000_000,
    change: -1_234_567.89,
    changePercent: -5.81,
    open: 21_234_567.89,
    prevClose: 21_234_567.89,
    high: 21_300_000,
    low: 19_999_999.99,
    volume: 1234,
    quoteVolume: 24_680_000_000,
    trades: 4321,
    bid: 19_999_999.99,
    ask: 20_000_000.01,
    bidSize: 0.5,
    askSize: 1.25,
  },
  TINYUSDT: {
    last: 0.00001234,
    change: -0.00000012,
    changePercent: -0.96,
    open: 0.00001245,
    prevClose: 0.00001246,
    high: 0.0000125,
    low: 0.0000121,
    volume: 987_654_321_098,
    quoteVolume: 12.19,
    trades: 7,
    bid: 0.00001233,
    ask: 0.00001235,
    bidSize: 0.00012345,
    askSize: 0.0000005,
  },
  MOONUSDT: {
    last: 4.2,
    change: 4.1666,
    changePercent: 12_345.67,
    open: 0.034,
    prevClose: 0.034,
    high: 4.5,
    low: 0.03,
    volume: 5,
    quoteVolume: 999_999,
    trades: 999_999_999_999,
    bid: 4.19,
    ask: 4.21,
    bidSize: 999.99,
    askSize: 123_456.789,
  },
  '1000000SHIBUSDT': { last: 0.0123, change: 0.0001, changePercent: 0.82 },
}
/** More plain symbols than the Free plan streams (10), so some rows are polled and show an age. */
const PLAIN = ['A', 'B', 'C', 'D', 'E', 'F', 'G'].map((c) => `${c}COINUSDT`)
const KEYS = [...Object.keys(QUOTES), ...PLAIN, 'NOSUCHCOIN'].map((s) => `crypto:${s}`)

/** The default header after hiding Change % and moving Volume up two places. */
const MOVED = ['Symbol', 'Last', 'Chg', 'Vol', 'High', 'Low', 'Bid', 'Ask', 'Trend', 'Source']

const headers = (page: Page): Promise<string[]> =>
  page.locator('table.watchlist thead th').allTextContents()

const focused = (page: Page): Promise<string> =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null
    return `${el?.localName ?? ''}:${el?.getAttribute('aria-label') ?? el?.closest('label')?.textContent?.trim() ?? el?.textContent?.trim() ?? ''}`
  })

/** Presses Tab (or Shift+Tab) until `name` has the focus: how a keyboard gets there. */
async function tabTo(page: Page, name: RegExp, key = 'Tab', max = 60): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (name.test(await focused(page))) return
    await page.keyboard.press(key)
  }
  throw new Error(`Tab never reached ${name}; last focus ${await focused(page)}`)
}

describe.skipIf(!chromiumPath)('the grid: columns, density, widths (Chromium)', () => {
  let service: FixedQuoteService
  let desk: DeskInChromium
  let env: HostUnderTest
  let page: Page

  beforeAll(async () => {
    service = await startFixedQuoteService(
      {
        ...QUOTES,
        ...Object.fromEntries(PLAIN.map((s, i) => [s, { last: 10 + i, change: 0.5 }])),
      },
      { unknown: ['NOSUCHCOIN'] },
    )
    const dataDir = mkdtempSync(join(tmpdir(), 'tickdesk-columns-'))
    const lists = {
      watchlists: [
        { id: 'extremes', name: 'Extremes', symbols: KEYS },
        { id: 'plain', name: 'Plain', symbols: PLAIN.slice(0, 3).map((s) => `crypto:${s}`) },
      ],
      activeId: 'extremes',
    }
    writeFileSync(join(dataDir, 'watchlists.json'), JSON.stringify({ version: 1, data: lists }))
    desk = await openDeskInChromium(chromiumPath as string, {
      host: { dataDir, service, plan: 'free' },
      context: { viewport: { width: 1280, height: 800 } },
      beforeLoad: (p) => watchPage(p),
      ready: (p) => p.locator('tbody tr[data-key="crypto:BIGUSDT"]').waitFor({ timeout: 20_000 }),
    })
    ;({ env, page } = desk)
  })

  afterAll(async () => {
    await desk?.close()
    await service?.close()
  })

  it('keeps every figure, sparkline and badge inside its cell, with every column, in both densities', async () => {
    await expect
      .poll(() => figure(page, 'crypto:BIGUSDT', 'last'), { timeout: 20_000 })
      .toMatch(/^123,456,789\.1\d$/)
    await env.app.invoke('updateSettings', { grid: { columns: [...GRID_COLUMNS] } })
    await expect.poll(() => page.locator('thead th').count()).toBe(GRID_COLUMNS.length + 2)
    await expect
      .poll(() => page.locator('[data-testid="quote-age"]').count(), { timeout: 20_000 })
      .toBeGreaterThan(0)
    await expect
      .poll(
        () =>
          page.locator('[data-key="crypto:NOSUCHCOIN"] [data-testid="source-badge"]').textContent(),
        {
          timeout: 20_000,
        },
      )
      .toBe('Unknown symbol')
    for (const density of ['comfortable', 'compact'] as const) {
      await env.app.invoke('updateSettings', { grid: { density } })
      await expect.poll(() => page.locator(`table.watchlist.${density}`).count()).toBe(1)
      // Measured while the feed keeps rewriting the cells (a push every 250 ms).
      for (let i = 0; i < 3; i++) {
        expect(await spills(page), density).toEqual([])
        await page.waitForTimeout(300)
      }
      // Widths follow the data: the largest prices fit whole, and no header is cut short.
      expect(await figure(page, 'crypto:TWENTYMUSDT', 'bid')).toBe('19,999,999.99')
      expect(await figure(page, 'crypto:BIGUSDT', 'ask')).toBe('123,456,789.13')
      expect(await figure(page, 'crypto:BIGUSDT', 'quoteVolume')).toBe('12,000T')
      expect(await figure(page, 'crypto:TINYUSDT', 'last')).toMatch(/^0\.0000123\d$/)
      expect(await figure(page, 'crypto:TINYUSDT', 'askSize')).toBe('0.00000050')
      // Past its column's cap a figure is shortened, not spilled: decimals go first.
      expect(await figure(page, 'crypto:MOONUSDT', 'changePercent')).toBe('+12,346%')
      expect(await figure(page, 'crypto:MOONUSDT', 'trades')).toBe('1.00T')
      // Spread: ask − bid and bps of the mid; none ("—") where the service sends no bid or ask.
      expect(await figure(page, 'crypto:MOONUSDT', 'spread')).toMatch(/^0\.020* · 47\.6 bp$/)
      expect(await figure(page, 'crypto:TINYUSDT', 'spread')).toMatch(/^0\.000000020* · 16\.2 bp$/)
      expect(await figure(page, 'crypto:1000000SHIBUSDT', 'spread')).toBe('—')
      const cut = await page
        .locator('thead button')
        .evaluateAll((bs) =>
          bs.filter((b) => b.scrollWidth > b.clientWidth).map((b) => b.textContent),
        )
      expect(cut).toEqual([])
    }
  })
  it('chooses, orders and remembers columns, density and each list’s sort by keyboard alone', async () => {
    await env.app.invoke('updateSettings', {
      grid: { columns: [...DEFAULT_COLUMNS], density: 'comfortable' },
    })
    await page.reload()
    await page.locator('tbody tr[data-key="crypto:BIGUSDT"]').waitFor({ timeout: 20_000 })
    await page.keyboard.press('/')
    await tabTo(page, /^button:Columns$/)
    await page.keyboard.press('Enter')
    const dialog = page.getByRole('dialog', { name: 'Columns and density' })
    await dialog.waitFor()
    expect(await focused(page)).toBe('input:Last')
    // Down twice to Change %, Space hides it.
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('ArrowDown')
    expect(await focused(page)).toBe('input:Change %')
    await page.keyboard.press('Space')
    await expect.poll(() => headers(page)).not.toContain('Chg %')
    // Down to Volume, Alt+Up twice moves it before High.
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowDown')
    expect(await focused(page)).toBe('input:Volume')
    await page.keyboard.press('Alt+ArrowUp')
    await page.keyboard.press('Alt+ArrowUp')
    expect(await focused(page)).toBe('input:Volume')
    await expect.poll(() => headers(page)).toEqual([...MOVED, 'Actions'])
    // On to Trades (hidden, listed after the shown ones): Space shows it, after Source.
    await tabTo(page, /^input:Trades$/)
    await page.keyboard.press('Space')
    await expect.poll(() => headers(page)).toContain('Trades')
    // Back to the density radios: an arrow picks Compact.
    await tabTo(page, /^input:Comfortable$/, 'Shift+Tab')
    await page.keyboard.press('ArrowRight')
    await expect.poll(() => page.locator('table.watchlist.compact').count()).toBe(1)
    await page.waitForTimeout(600)
    await readmeScreenshot(page, 'columns')
    await page.keyboard.press('Escape')
    await expect.poll(() => dialog.count()).toBe(0)
    expect(await focused(page)).toBe('button:Columns')

    // Sort the list by Last, descending: Tab to the header, Enter twice.
    await tabTo(page, /^button:Last$/)
    await page.keyboard.press('Enter')
    await page.keyboard.press('Enter')
    const lastHeader = page.locator('thead th', { has: page.getByRole('button', { name: 'Last' }) })
    await expect.poll(() => lastHeader.getAttribute('aria-sort')).toBe('descending')
    await expect
      .poll(() => page.locator('tbody tr[data-key]').first().getAttribute('data-key'))
      .toBe('crypto:BIGUSDT')
    // Another list keeps its own order; coming back finds the sort again.
    await page.getByRole('tab', { name: 'Plain' }).focus()
    await page.keyboard.press('Enter')
    await expect.poll(() => page.locator('tbody tr[data-key]').count()).toBe(3)
    expect(await lastHeader.getAttribute('aria-sort')).toBe('none')
    await page.getByRole('tab', { name: 'Extremes' }).focus()
    await page.keyboard.press('Enter')
    await expect.poll(() => lastHeader.getAttribute('aria-sort')).toBe('descending')

    // All of it is remembered: after a reload, and in the settings file's model. The tab tells the
    // host after the frame that shows the list: a reload before the host has it would show Plain.
    await expect.poll(() => env.app.lists.activeId).toBe('extremes')
    await page.reload()
    await page.locator('tbody tr[data-key="crypto:BIGUSDT"]').waitFor({ timeout: 20_000 })
    expect(await headers(page)).toEqual([...MOVED, 'Trades', 'Actions'])
    expect(await page.locator('table.watchlist.compact').count()).toBe(1)
    expect(await lastHeader.getAttribute('aria-sort')).toBe('descending')
    expect(env.app.settings.grid.sorts).toEqual({
      extremes: { column: 'last', direction: 'descending' },
    })
  })
})
