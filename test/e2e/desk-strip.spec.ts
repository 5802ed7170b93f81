import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromiumOrSkip } from './chromium'
import { openDeskInChromium, type DeskInChromium } from './desk-in-chromium'
import type { HostUnderTest } from './in-process-host'
import { readmeScreenshot } from './screenshots'
import { watchPage } from './page-watch'

const chromiumPath = chromiumOrSkip()

const item = (page: Page, key: string) => page.locator(`li[data-key="${key}"][data-copy="0"]`)
const nextFrame = (page: Page): Promise<void> =>
  page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => resolve())))
const lastOf = async (page: Page, key: string): Promise<string> =>
  ((await item(page, key).locator('[data-field="last"]').textContent()) ?? '').trim()

describe.skipIf(!chromiumPath)('the ticker strip at /strip (browser host, Chromium)', () => {
  let desk: DeskInChromium
  let env: HostUnderTest
  let main: Page
  let strip: Page

  beforeAll(async () => {
    desk = await openDeskInChromium(chromiumPath as string, {
      context: { viewport: { width: 1280, height: 800 } },
    })
    ;({ env, page: main } = desk)
  })

  afterAll(async () => {
    await desk?.close()
  })

  it('shows nothing without a session: 403 like the app', async () => {
    const bare = `http://127.0.0.1:${env.host.port}/strip`
    expect((await fetch(bare)).status).toBe(403)
    expect((await fetch(`${bare}?token=wrong`)).status).toBe(403)
    const stranger = await desk.openPage({ url: null, context: {} })
    const response = await stranger.goto(bare)
    expect(response?.status()).toBe(403)
    expect(await stranger.getByTestId('ticker-strip').count()).toBe(0)
    await stranger.close()
  })

  it('ticks: one line of the active list, symbol, last and change %, without console errors', async () => {
    strip = await desk.openPage({ url: null, viewport: { width: 960, height: 40 } })
    const watch = watchPage(strip)
    await strip.goto(desk.deskUrl('/strip'))
    const bar = strip.getByTestId('ticker-strip')
    await expect
      .poll(() => bar.getAttribute('aria-label'), { timeout: 20_000 })
      .toBe('Ticker strip: Crypto')
    const key = 'crypto:BTCUSDT'
    await expect.poll(() => lastOf(strip, key), { timeout: 20_000 }).toMatch(/\d/)
    expect(
      ((await item(strip, key).locator('[data-field="changePercent"]').textContent()) ?? '').trim(),
    ).toMatch(/%$/)
    const first = await lastOf(strip, key)
    // Hovering pauses the crawl; the price still ticks.
    await expect.poll(() => lastOf(strip, key), { timeout: 20_000 }).not.toBe(first)
    expect(watch.problems).toEqual([])
    await readmeScreenshot(strip, 'strip')
  })

  it('crawls when the symbols do not fit, and pages under prefers-reduced-motion', async () => {
    await strip.setViewportSize({ width: 420, height: 40 })
    const bar = strip.getByTestId('ticker-strip')
    await expect.poll(() => bar.getAttribute('data-motion')).toBe('scroll')
    await expect
      .poll(() =>
        strip.evaluate(() => document.querySelector('.track')?.getAnimations().length ?? 0),
      )
      .toBe(1)
    await strip.emulateMedia({ reducedMotion: 'reduce' })
    // Chromium reports a media query change at the page's next rendering update, and a quiet
    // strip (compositor crawl, one tick a second) renders about once a second: more than
    // expect.poll's 1 s. A requested animation frame is such an update, so the change is
    // delivered before the frame's callbacks run.
    await nextFrame(strip)
    // With two spec files sharing the run's Chromium, that update can still come after
    // expect.poll's default 1 s (a clean-clone CI run saw 'scroll' at 1 s): poll until it does.
    await expect.poll(() => bar.getAttribute('data-motion'), { timeout: 10_000 }).toBe('page')
    expect(
      await strip.evaluate(() => document.querySelector('.track')?.getAnimations().length ?? 0),
    ).toBe(0)
    await strip.emulateMedia({ reducedMotion: 'no-preference' })
  })

  it('is driven by keyboard only: Shift+F10 opens its menu, arrows move, Enter picks, Escape closes', async () => {
    await strip.setViewportSize({ width: 960, height: 40 })
    await strip.keyboard.press('Tab')
    await strip.keyboard.press('Shift+F10')
    const menu = strip.getByRole('menu', { name: 'Strip menu' })
    await menu.waitFor()
    const focused = (): Promise<string> =>
      strip.evaluate(() => document.activeElement?.textContent ?? '')
    expect(await focused()).toBe('Active list')
    await strip.keyboard.press('ArrowRight')
    await strip.keyboard.press('ArrowRight')
    expect(await focused()).toBe('Macro')
    await strip.keyboard.press('Enter')
    await expect.poll(() => env.app.settings.strip.watchlistId).toBe('macro')
    await expect
      .poll(() => strip.getByTestId('ticker-strip').getAttribute('aria-label'))
      .toBe('Ticker strip: Macro')
    expect(await menu.count()).toBe(0)
    expect(await focused()).toBe('')
    expect(await strip.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      'Strip menu',
    )

    await strip.keyboard.press('ContextMenu')
    await menu.waitFor()
    await strip.keyboard.press('End')
    await strip.keyboard.press('ArrowLeft')
    expect(await focused()).toBe('Page')
    await strip.keyboard.press(' ')
    await expect.poll(() => env.app.settings.strip.motion).toBe('page')
    await strip.keyboard.press('ArrowLeft')
    await strip.keyboard.press('ArrowLeft')
    expect(await focused()).toBe('Fast')
    await strip.keyboard.press(' ')
    await expect.poll(() => env.app.settings.strip.speed).toBe('fast')
    await strip.keyboard.press('Escape')
    expect(await menu.count()).toBe(0)
  })

  it('turns pages every few seconds when paging', async () => {
    await strip.setViewportSize({ width: 360, height: 40 })
    const transform = (): Promise<string> =>
      strip.evaluate(
        () => (document.querySelector('.track') as HTMLElement | null)?.style.transform ?? '',
      )
    await expect.poll(transform, { timeout: 10_000 }).toMatch(/translateY\(-\d+px\)/)
  })

  it('opens a clicked symbol in the main window', async () => {
    await strip.setViewportSize({ width: 1400, height: 40 })
    await item(strip, 'fx:EURUSD').getByRole('button').click()
    await expect
      .poll(() => main.getByTestId('detail-view').locator('h2').textContent(), { timeout: 20_000 })
      .toBe('fx:EURUSD')
  })

  it('remembers its list, speed and motion across a restart (settings)', async () => {
    await env.restart()
    expect(env.app.settings.strip).toMatchObject({
      watchlistId: 'macro',
      motion: 'page',
      speed: 'fast',
    })
  })
})
