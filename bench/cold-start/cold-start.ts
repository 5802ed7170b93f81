/// <reference lib="dom" />
import { startBrowserHost } from '../../src/web'
import type { Page } from 'playwright-core'
import { browserOrSkip, builtRendererOrSkip, serveStatic, sleep } from '../chromium-page'
import { coldDesk } from './cold-desk'
import { leanColdPage } from './cold-start-reference'
import { chromiumSettled } from '../process-cpu'
import {
  atMost,
  median,
  report,
  round,
  skipped,
  type BenchContext,
  type BenchResult,
} from '../stats'

/**
 * cold start: from "start the browser host" (startBrowserHost, `tickdesk web`'s own start-up: the
 * page server listening beside the app service's start, on an existing data folder) to every row of the active 30-symbol watchlist showing its cached price in Chromium
 * (the host's snapshot in the served page, or the grid, whichever shows first); then, reported
 * beside it, to the app's own grid mounted in its place (liveGridShown).
 * The simulator is taken down first, so what the rows show can only come from the cache. The
 * browser is already running (its own launch is not Tickdesk's cost), and so is the page's window:
 * the clock starts once Chromium has finished building a new window's own UI (process-cpu.ts,
 * chromiumSettled), which otherwise took 160-1,230 ms of CPU inside the timed start. Median of 3.
 *
 * Read hands-off: nothing of the bench's runs in the page while it starts, and what the page
 * recorded is read once the start is over. An observer installed before the document (a
 * MutationObserver the bench injects) marks each price cell for the browser's Element Timing, and
 * the headline is when Chromium presented the last of the prices in view
 * (PerformanceElementTiming.renderTime: the frame's presentation, the nearest the browser comes to
 * the trader's eyes). Before, Node polled the page (Playwright's waitForFunction) and timed when
 * it heard; that poll is the page's work too (its injected script: a 35 ms task and a 17 ms
 * evaluation on the page's main thread right after the first frame, trace), and it timed the
 * main thread's frame, not what reached the screen, which came up to 100 ms later.
 */
const ROUNDS = 3
/** How long a hands-off round leaves the page alone before reading what it recorded. */
const HANDS_OFF_MS = 2_500
/** The same for the lean page, which has no app to wait for. */
const LEAN_HANDS_OFF_MS = 1_000

/**
 * In the page: a visible table lists all `rows` and every row in it shows a price. Either the
 * host's cached snapshot (src/web/cached-desk-html.ts, each price marked cached) or the live grid,
 * whichever is on screen: what a trader sees. A hidden table (the app under the snapshot) does
 * not count.
 */
export function cachedPricesShown(rows: number): boolean {
  const table = [...document.querySelectorAll('table[aria-rowcount]')].find((t) =>
    t.checkVisibility({ visibilityProperty: true }),
  )
  if (table === undefined) return false
  const listed = Number(table.getAttribute('aria-rowcount'))
  const cells = [
    ...table.querySelectorAll(
      'tbody tr:is([data-key], [data-cached-key]) :is([data-field="last"], [data-cached-field="last"])',
    ),
  ]
  return (
    listed === rows + 1 && cells.length > 0 && cells.every((c) => /\d/.test(c.textContent ?? ''))
  )
}

/**
 * In the page: the app's own grid is mounted and on screen with every row priced, and the
 * snapshot is gone. Only the mounted app renders rows with data-key inside #app; the snapshot is
 * never counted as the app.
 */
export function liveGridShown(rows: number): boolean {
  if (document.getElementById('cached-desk') !== null) return false
  const table = document.querySelector('#app table[aria-rowcount]')
  if (table === null || !table.checkVisibility({ visibilityProperty: true })) return false
  const cells = [...table.querySelectorAll('tbody tr[data-key] [data-field="last"]')]
  return (
    Number(table.getAttribute('aria-rowcount')) === rows + 1 &&
    cells.length > 0 &&
    cells.every((c) => /\d/.test(c.textContent ?? ''))
  )
}

/**
 * Installed before the page's document exists: the epoch ms of the first frame in which
 * cachedPricesShown holds (checked in each frame's animation callback, as the bench's own
 * polling is), and when the browser presented the prices then in view. Each Last cell (and what
 * it holds: the text may sit in a span) is marked `elementtiming` as the parser inserts it, so
 * Chromium reports its first paint; the cells of the table seen in that frame that lie in the
 * window are the ones that count (rows below the fold are never painted).
 */
function frameObserver(rows: number): string {
  return `(() => {
    const shown = ${cachedPricesShown.toString()}
    const PRICE = '[data-cached-field="last"], [data-field="last"]'
    const painted = new Map()
    new MutationObserver((records) => {
      for (const r of records) for (const n of r.addedNodes) {
        if (!(n instanceof Element)) continue
        const cells = n.matches(PRICE) ? [n] : n.querySelectorAll(PRICE)
        for (const c of cells) for (const e of [c, ...c.querySelectorAll('*')]) e.setAttribute('elementtiming', 'price')
      }
    }).observe(document, { childList: true, subtree: true })
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (!painted.has(e.element)) painted.set(e.element, e.renderTime)
    }).observe({ type: 'element', buffered: true })
    let inView = []
    window.__pricesPaintedAt = () => {
      const at = inView.map((c) => Math.max(...[c, ...c.querySelectorAll('*')].map((e) => painted.get(e) ?? -1)))
      return at.length === 0 || at.some((t) => t <= 0) ? null : performance.timeOrigin + Math.max(...at)
    }
    const live = ${liveGridShown.toString()}
    const checkLive = () => {
      if (live(${rows})) window.__liveGridAt = performance.timeOrigin + performance.now()
      else requestAnimationFrame(checkLive)
    }
    requestAnimationFrame(checkLive)
    const check = () => {
      if (!shown(${rows})) return requestAnimationFrame(check)
      window.__cachedShownAt = performance.timeOrigin + performance.now()
      const table = [...document.querySelectorAll('table[aria-rowcount]')].find((t) => t.checkVisibility({ visibilityProperty: true }))
      inView = [...table.querySelectorAll(PRICE)].filter((c) => c.getBoundingClientRect().top < innerHeight)
    }
    requestAnimationFrame(check)
  })()`
}

/** ms from `t0` (this process's performance.now()) to the frames the page's observer saw. */
async function frameTimes(page: Page, t0: number): Promise<{ cached: number; live: number }> {
  const at = await page.evaluate(() => {
    const w = window as { __cachedShownAt?: number; __liveGridAt?: number }
    return { cached: w.__cachedShownAt ?? Number.NaN, live: w.__liveGridAt ?? Number.NaN }
  })
  const from = performance.timeOrigin + t0
  return { cached: at.cached - from, live: at.live - from }
}

/** ms from `t0` to the page's navigation start (its performance.timeOrigin). */
async function navigationMs(page: Page, t0: number): Promise<number> {
  return (await page.evaluate(() => performance.timeOrigin)) - (performance.timeOrigin + t0)
}

/**
 * ms from `t0` to the presentation of the last price in view, waiting until the page has one
 * (a round slower than HANDS_OFF_MS is asked again until it has, its cost then after the fact);
 * with `live`, until the live grid is up too.
 */
async function pricesPaintedMs(page: Page, t0: number, live = true): Promise<number> {
  const read = (): Promise<number | null> =>
    page.evaluate((live) => {
      const w = window as { __pricesPaintedAt?: () => number | null; __liveGridAt?: number }
      return live && w.__liveGridAt === undefined ? null : (w.__pricesPaintedAt?.() ?? null)
    }, live)
  for (let waited = 0; waited < 30_000; waited += 250) {
    const at = await read()
    if (at !== null) return at - (performance.timeOrigin + t0)
    await sleep(250)
  }
  throw new Error('the cached prices were never painted')
}

type Browser = Exclude<Awaited<ReturnType<typeof browserOrSkip>>, string>

/** A new page with the bench's observer, once Chromium has settled its new window. */
async function observedPage(browser: Browser, rows: number): Promise<Page> {
  const page = await browser.newPage()
  await page.addInitScript(frameObserver(rows))
  await chromiumSettled()
  return page
}

/** One round of the lean page: ms from its navigation to its prices painted. */
async function leanRound(browser: Browser, url: string, rows: number): Promise<number> {
  const page = await observedPage(browser, rows)
  const t0 = performance.now()
  await page.goto(url, { waitUntil: 'commit' })
  await sleep(LEAN_HANDS_OFF_MS)
  const ms = await pricesPaintedMs(page, t0, false)
  await page.close()
  return ms
}

/** One round of Tickdesk: each figure in ms from the host's start. */
interface DeskRound {
  painted: number
  /** The page's navigation start. */
  navigation: number
  /** The frame whose callback first found every row priced. */
  cached: number
  /** The frame the live grid was mounted in. */
  live: number
}

async function deskRound(
  browser: Browser,
  rows: number,
  host: Parameters<typeof startBrowserHost>[0],
): Promise<DeskRound> {
  const page = await observedPage(browser, rows)
  const t0 = performance.now()
  const started = await startBrowserHost(host)
  // From the response on: what shows while the page's script still loads counts.
  await page.goto(started.host.launchUrl(), { waitUntil: 'commit' })
  await sleep(HANDS_OFF_MS)
  const painted = await pricesPaintedMs(page, t0)
  const navigation = await navigationMs(page, t0)
  const frames = await frameTimes(page, t0)
  await page.close()
  await started.close()
  return { painted, navigation, ...frames }
}

/** The bench's rows from each round's figures: the desk's, and the lean page's in ms. */
function coldStartResult(
  ctx: BenchContext,
  rows: number,
  desks: readonly DeskRound[],
  lean: readonly number[],
): BenchResult {
  const painted = desks.map((d) => d.painted)
  const paintedFromNav = desks.map((d) => d.painted - d.navigation)
  const inPage = desks.map((d) => d.cached)
  const live = desks.map((d) => d.live)
  const ms = median(painted)
  const liveMs = median(live)
  const fromNav = median(paintedFromNav)
  const leanMs = median(lean)
  ctx.log(`cached prices painted: ${painted.map((t) => Math.round(t)).join(', ')} ms`)
  ctx.log(`  from navigation: ${paintedFromNav.map((t) => Math.round(t)).join(', ')} ms`)
  ctx.log(`lean page painted from navigation: ${lean.map((t) => Math.round(t)).join(', ')} ms`)
  ctx.log(`in the page's frame: ${inPage.map((t) => Math.round(t)).join(', ')} ms`)
  ctx.log(`live grid: ${live.map((t) => Math.round(t)).join(', ')} ms`)
  return {
    name: 'coldStart',
    rows: [
      atMost(
        'host start to the cached prices in view painted (median of 3)',
        round(ms, 0),
        'ms',
        250,
        `${rows} rows, service down; Chromium's Element Timing of each price in view; slowest ${round(Math.max(...painted), 0)} ms`,
      ),
      report(
        'the same from the navigation, against the lean page (median of 3)',
        round(fromNav / leanMs, 2),
        'x reference',
        `${round(fromNav, 0)} vs ${round(leanMs, 0)} ms: the same rows as one static table, no script, from a bare server already up (bench/cold-start/cold-start-reference.ts)`,
      ),
      report(
        "host start to the frame the page's observer saw them in (median of 3)",
        round(median(inPage), 0),
        'ms',
        'the animation frame whose callback first found every row priced: before its paint',
      ),
      report(
        'host start to the frame the live grid was mounted in (median of 3)',
        round(liveMs, 0),
        'ms',
      ),
    ],
    json: {
      paintedMs: round(ms, 0),
      worstPaintedMs: round(Math.max(...painted), 0),
      paintedFromNavMs: round(fromNav, 0),
      leanPaintedMs: round(leanMs, 0),
      inPageMs: round(median(inPage), 0),
      liveGridFrameMs: round(liveMs, 0),
      rows,
    },
  }
}

export async function coldStartBench(ctx: BenchContext): Promise<BenchResult> {
  const dir = builtRendererOrSkip()
  if (dir === null) return skipped('coldStart', 'renderer not built')
  const browser = await browserOrSkip()
  if (typeof browser === 'string') return skipped('coldStart', browser)
  const desk = await coldDesk(dir)
  const { rows } = desk
  let reference: Awaited<ReturnType<typeof serveStatic>> | undefined
  try {
    reference = await serveStatic(leanColdPage(rows))
    const desks: DeskRound[] = []
    const lean: number[] = []
    for (let r = 0; r < ROUNDS; r++) {
      // The lean page first, in the same minute as each Tickdesk round.
      lean.push(await leanRound(browser, reference.url, rows))
      desks.push(await deskRound(browser, rows, desk.host))
    }
    return coldStartResult(ctx, rows, desks, lean)
  } finally {
    reference?.server.close()
    await browser.close()
    await desk.close()
  }
}
