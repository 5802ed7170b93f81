/// <reference lib="dom" />
import { rmSync } from 'node:fs'
import type { Page } from 'playwright-core'
import { sleep } from '../chromium-page'
import { benchDataDir, referenceHost, tickdeskHost } from './hosts'
import { ARRIVALS_SCRIPT, PageProbe, RECORDER_SCRIPT } from './page-recorder'
import { launchBrowser, startFeed, type FeedServer } from './processes'
import { TreeMeter } from './proc-stats'
import { PageProfiler } from './page-profiler'
import { summary, type Phase } from './phase-summary'

export { benchDataDir, referenceHost, tickdeskHost } from './hosts'
export { summary, type Phase } from './phase-summary'

/**
 * One side of the render benchmark (Tickdesk or the reference), start to finish, in processes of
 * its own: the feed server, the host, and a fresh Chromium. Two phases, metered the same way on
 * both sides: idle (IDLE_SYMBOLS, 1 tick/s each, all in one frame), idle with spread ticks (each
 * symbol's tick its own frame at its own moment in the second) and hot (HOT_SYMBOLS, HOT_TICKS_PER_SEC).
 */
export const IDLE_SYMBOLS = 50
export const HOT_SYMBOLS = 200
export const HOT_TICKS_PER_SEC = 10_000
/**
 * The rows the lean page paints: those the grid shows in the bench's window (1400 x 900, 23.5
 * rows of 31.6 px under its toolbar and header; 28 in its DOM with the overscan). The grid's own
 * count is read in every run (`inView`), so a change of its geometry shows beside the figures.
 */
export const REFERENCE_ROWS = 24
const WARM_UP_MS = 3000
const VIEWPORT = { width: 1400, height: 900 }

export interface SideResult {
  /** Absent when the run measured the hot phase alone (idleSeconds 0: the guard's short form). */
  idle?: Phase
  /** Idle with each symbol's tick in its own frame at its own moment (the feed's `spread`). */
  spread?: Phase
  /** Absent when the run measured the idle phases alone (hotSeconds 0: the rest form). */
  hot?: Phase
  /** Tickdesk only: symbols typed in quick succession under load that ended up listed. */
  typed?: { asked: number; listed: number }
  /** Tickdesk only: grid rows on screen in the hot phase (the lean page paints REFERENCE_ROWS). */
  inView?: number
}

export interface RunOptions {
  chromium: string
  /** 0: no idle phases, the hot phase alone. */
  idleSeconds: number
  spreadSeconds: number
  /** 0: no hot phase, the idle phases alone. */
  hotSeconds: number
  log: (line: string) => void
  /** Trace the main thread during each phase (a breakdown by kind; costs time itself). */
  trace?: boolean
  /**
   * The list saved before the host starts, not typed in: for a run of the hot phase alone (the
   * short form) or of the idle phases alone, without the minute of typing 200 symbols (half of
   * them under load) that the full run checks.
   */
  seeded?: boolean
}

export function benchKeys(from: number, to: number): string[] {
  return Array.from(
    { length: to - from },
    (_, i) => `crypto:B${String(from + i).padStart(3, '0')}USDT`,
  )
}

async function measure(
  page: Page,
  probe: PageProbe,
  host: TreeMeter,
  browser: TreeMeter,
  seconds: number,
): Promise<Phase> {
  const profiler = await PageProfiler.startIfAsked(page)
  await probe.start()
  host.start()
  browser.start()
  for (let s = 0; s < seconds; s++) {
    await sleep(1000)
    host.sample()
    browser.sample()
  }
  const h = host.stop()
  const b = browser.stop()
  const sample = await probe.stop()
  await profiler?.stop()
  return {
    sample,
    seconds: h.seconds,
    hostCpuPct: h.cpuPct,
    browserCpuPct: b.cpuPct,
    hostPssMB: h.maxPssMB,
  }
}

/** Grid rows on screen (inside the window), as a user counts them. */
const rowsInView = (page: Page): Promise<number> =>
  page.evaluate(
    () =>
      [...document.querySelectorAll('tbody tr[data-key]')].filter((r) => {
        const b = r.getBoundingClientRect()
        return b.height > 0 && b.bottom > 0 && b.top < innerHeight
      }).length,
  )

async function settledRowsInView(page: Page, timeoutMs: number): Promise<number> {
  const until = Date.now() + timeoutMs
  let rows = await rowsInView(page)
  while (rows === 0 && Date.now() < until) {
    await sleep(250)
    rows = await rowsInView(page)
  }
  return rows
}

/** Symbols the grid lists: its aria-rowcount less the header (rows out of view are not in the DOM). */
const rowCount = (page: Page): Promise<number> =>
  page.evaluate(() => {
    const table = document.querySelector('[aria-rowcount]')
    const n = Number(table?.getAttribute('aria-rowcount') ?? 0)
    return n > 0 ? n - 1 : document.querySelectorAll('tbody tr[data-key]').length
  })

/** Types each key into the "Add symbol" field and presses Enter, without waiting in between. */
export async function typeSymbols(page: Page, keys: readonly string[]): Promise<void> {
  await page.getByLabel('Add symbol').focus()
  for (const key of keys) {
    await page.keyboard.insertText(key)
    await page.keyboard.press('Enter')
  }
}

export async function waitForRows(page: Page, n: number, timeoutMs: number): Promise<number> {
  const until = Date.now() + timeoutMs
  let rows = await rowCount(page)
  while (rows < n && Date.now() < until) {
    await sleep(250)
    rows = await rowCount(page)
  }
  return rows
}

export async function withSide<T>(
  opts: RunOptions,
  startHost: (feed: FeedServer) => Promise<{ pid: number; url: string; stop(): Promise<void> }>,
  body: (ctx: {
    feed: FeedServer
    page: Page
    url: string
    phase: (seconds: number) => Promise<Phase>
  }) => Promise<T>,
): Promise<T> {
  const feed = await startFeed()
  let host: Awaited<ReturnType<typeof startHost>> | null = null
  let chromium: Awaited<ReturnType<typeof launchBrowser>> | null = null
  try {
    host = await startHost(feed)
    chromium = await launchBrowser(opts.chromium)
    const page = await chromium.browser.newPage({ viewport: VIEWPORT })
    // BENCH_ARRIVALS=1: when each price reached the page, beside when it was written.
    if (process.env.BENCH_ARRIVALS === '1') await page.addInitScript(ARRIVALS_SCRIPT)
    await page.addInitScript(RECORDER_SCRIPT)
    const probe = await PageProbe.attach(page, opts.trace === true)
    const hostMeter = new TreeMeter(host.pid)
    const browserMeter = new TreeMeter(chromium.pid)
    const url = host.url
    return await body({
      feed,
      page,
      url,
      phase: async (seconds) => {
        await sleep(WARM_UP_MS)
        return measure(page, probe, hostMeter, browserMeter, seconds)
      },
    })
  } finally {
    await chromium?.close()
    await host?.stop()
    feed.close()
  }
}

/**
 * The lean page, painting the rows the grid shows; BENCH_REFERENCE=all-rows: the reference of
 * the figures before 2026-11-28 (every row painted, four figures a row), to read those against.
 */
function referenceUrl(url: string, n: number): string {
  const allRows = process.env.BENCH_REFERENCE === 'all-rows'
  return allRows ? `${url}all-rows?n=${n}` : `${url}?n=${n}&rows=${REFERENCE_ROWS}`
}

export async function runReference(opts: RunOptions): Promise<SideResult> {
  return withSide(opts, referenceHost, async ({ feed, page, url, phase }) => {
    let idle: Phase | undefined
    let spread: Phase | undefined
    if (opts.idleSeconds > 0) {
      feed.mode('idle')
      await page.goto(referenceUrl(url, IDLE_SYMBOLS))
      idle = await phase(opts.idleSeconds)
      opts.log(`reference idle: ${summary(idle)}`)
      feed.mode('spread')
      spread = await phase(opts.spreadSeconds)
      opts.log(`reference idle, spread ticks: ${summary(spread)}`)
    }
    if (opts.hotSeconds === 0) return { ...(idle ? { idle } : {}), ...(spread ? { spread } : {}) }
    await page.goto(referenceUrl(url, HOT_SYMBOLS))
    feed.mode('hot', HOT_TICKS_PER_SEC)
    const hot = await phase(opts.hotSeconds)
    opts.log(`reference hot: ${summary(hot)}`)
    return { ...(idle ? { idle } : {}), ...(spread ? { spread } : {}), hot }
  })
}

export async function runTickdesk(opts: RunOptions): Promise<SideResult> {
  if (opts.seeded === true) return runTickdeskSeeded(opts)
  const dataDir = await benchDataDir()
  try {
    return await withSide(opts, tickdeskHost(dataDir), async ({ feed, page, url, phase }) => {
      feed.mode('idle')
      await page.goto(url)
      await typeSymbols(page, benchKeys(0, IDLE_SYMBOLS))
      await waitForRows(page, IDLE_SYMBOLS, 30_000)
      // Done adding: Escape leaves the field, as a trader would (no caret blinking meanwhile).
      await page.keyboard.press('Escape')
      let idle: Phase | undefined
      let spread: Phase | undefined
      if (opts.idleSeconds > 0) {
        idle = await phase(opts.idleSeconds)
        opts.log(`tickdesk idle: ${summary(idle)}`)
        feed.mode('spread')
        spread = await phase(opts.spreadSeconds)
        opts.log(`tickdesk idle, spread ticks: ${summary(spread)}`)
      }
      feed.mode('hot', HOT_TICKS_PER_SEC)
      await sleep(1000)
      await typeSymbols(page, benchKeys(IDLE_SYMBOLS, HOT_SYMBOLS))
      const listed = await waitForRows(page, HOT_SYMBOLS, 30_000)
      await page.keyboard.press('Escape')
      opts.log(`tickdesk: ${listed} of ${HOT_SYMBOLS} symbols listed after typing under load`)
      const inView = await rowsInView(page)
      const hot = await phase(opts.hotSeconds)
      opts.log(`tickdesk hot (${inView} rows in view): ${summary(hot)}`)
      return {
        ...(idle ? { idle } : {}),
        ...(spread ? { spread } : {}),
        hot,
        typed: { asked: HOT_SYMBOLS, listed },
        inView,
      }
    })
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}

/**
 * The hot phase alone on a list saved with all HOT_SYMBOLS, or the idle phases alone on one saved
 * with the IDLE_SYMBOLS, before the host started.
 */
async function runTickdeskSeeded(opts: RunOptions): Promise<SideResult> {
  if (opts.idleSeconds > 0 && opts.hotSeconds > 0)
    throw new Error('a run on a saved list measures the hot phase or the idle phases, not both')
  const n = opts.hotSeconds > 0 ? HOT_SYMBOLS : IDLE_SYMBOLS
  const dataDir = await benchDataDir(benchKeys(0, n))
  try {
    return await withSide(opts, tickdeskHost(dataDir), async ({ feed, page, url, phase }) => {
      if (opts.hotSeconds > 0) feed.mode('hot', HOT_TICKS_PER_SEC)
      else feed.mode('idle')
      await page.goto(url)
      const listed = await waitForRows(page, n, 30_000)
      opts.log(`tickdesk: ${listed} of ${n} symbols listed from the saved list`)
      // The list's length is known before its rows are drawn (aria-rowcount): read the rows on
      // screen once there are some, or this reads 0 on a loaded machine.
      const inView = await settledRowsInView(page, 10_000)
      if (opts.hotSeconds === 0) {
        const idle = await phase(opts.idleSeconds)
        opts.log(`tickdesk idle: ${summary(idle)}`)
        feed.mode('spread')
        const spread = await phase(opts.spreadSeconds)
        opts.log(`tickdesk idle, spread ticks: ${summary(spread)}`)
        return { idle, spread }
      }
      const hot = await phase(opts.hotSeconds)
      opts.log(`tickdesk hot (${inView} rows in view): ${summary(hot)}`)
      return { hot, inView }
    })
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}
