/// <reference lib="dom" />
import type { Browser, Page } from 'playwright-core'
import { startWebHost } from '../src/web'
import { BenchHost } from './bench-host'
import {
  browserOrSkip,
  builtRendererOrSkip,
  RECORDER_SCRIPT,
  sleep,
  startRecording,
  stopRecording,
  type PageSample,
} from './chromium-page'
import { startLeanPage } from './lean-page'
import {
  atMost,
  percentile,
  report,
  round,
  skipped,
  type BenchContext,
  type BenchResult,
} from './stats'
import type { SyntheticFeed } from './synthetic-feed'

/**
 * render: the real built renderer behind the real browser host (startWebHost), a 200-row
 * watchlist fed at 10k ticks/s, for 20 s in Chromium: tick-to-DOM latency, long tasks, frames.
 * The lean reference page gets the identical feed right after, in the same browser.
 */
export const ROWS = 200
export const TICKS_PER_SEC = 10_000

export interface PageRun {
  sample: PageSample
  page: Page
}

/** Opens `url`, waits for the rows, runs `feed` for warm-up + `seconds` while recording. */
export async function runFeedInPage(
  browser: Browser,
  url: string,
  feed: SyntheticFeed,
  rowSelector: string,
  seconds: number,
  during?: (page: Page, elapsedS: number) => Promise<void>,
): Promise<PageRun> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } })
  await page.addInitScript(RECORDER_SCRIPT)
  await page.goto(url)
  await page.waitForFunction(
    ({ sel, n }) => document.querySelectorAll(sel).length >= n,
    { sel: rowSelector, n: ROWS },
    { timeout: 30_000 },
  )
  feed.start()
  await sleep(2000)
  await startRecording(page)
  for (let s = 0; s < seconds; s++) {
    await sleep(1000)
    if (during) await during(page, s + 1)
  }
  const sample = await stopRecording(page)
  feed.stop()
  return { sample, page }
}

function summarise(s: PageSample): {
  p50: number
  p95: number
  p99: number
  longTasks: number
  maxLongTask: number
  fps: number
  patches: number
} {
  return {
    p50: percentile(s.latencies, 50),
    p95: percentile(s.latencies, 95),
    p99: percentile(s.latencies, 99),
    longTasks: s.longTasks.length,
    maxLongTask: s.longTasks.length ? Math.max(...s.longTasks) : 0,
    fps: s.frames / s.seconds,
    patches: s.latencies.length,
  }
}

export async function renderBench(ctx: BenchContext): Promise<BenchResult> {
  const dir = builtRendererOrSkip()
  if (dir === null) return skipped('render', 'renderer not built (npx electron-vite build failed)')
  const browser = await browserOrSkip()
  if (typeof browser === 'string') return skipped('render', browser)
  const seconds = 20
  try {
    const app = new BenchHost({ symbols: ROWS, ticksPerSec: TICKS_PER_SEC })
    const host = await startWebHost({ app, rendererDir: dir })
    let ours
    try {
      const run = await runFeedInPage(browser, host.url, app.feed, 'tbody tr[data-key]', seconds)
      ours = summarise(run.sample)
      await run.page.close()
    } finally {
      await host.close()
      await app.close()
    }
    ctx.log(
      `render ours: p50 ${ours.p50} p95 ${ours.p95} long tasks ${ours.longTasks} fps ${round(ours.fps)}`,
    )
    const leanPage = await startLeanPage({ symbols: ROWS, ticksPerSec: TICKS_PER_SEC })
    let lean
    try {
      const run = await runFeedInPage(browser, leanPage.url, leanPage.feed, '#rows tr', seconds)
      lean = summarise(run.sample)
      await run.page.close()
    } finally {
      await leanPage.close()
    }
    ctx.log(
      `render lean: p50 ${lean.p50} p95 ${lean.p95} long tasks ${lean.longTasks} fps ${round(lean.fps)}`,
    )
    return {
      name: 'render',
      rows: [
        report('tick-to-DOM p50', ours.p50, 'ms', `lean page ${lean.p50} ms`),
        atMost('tick-to-DOM p95', ours.p95, 'ms', 50, `lean page ${lean.p95} ms`),
        report('tick-to-DOM p99', ours.p99, 'ms', `lean page ${lean.p99} ms`),
        atMost(
          'long tasks (> 50 ms)',
          ours.longTasks,
          'tasks',
          0,
          `longest ${round(ours.maxLongTask)} ms; lean page ${lean.longTasks}`,
        ),
        report('animation frames', round(ours.fps), 'fps', `lean page ${round(lean.fps)} fps`),
        report(
          'patches applied',
          round(ours.patches / seconds, 0),
          'patches/s',
          `${ROWS} rows, ${TICKS_PER_SEC} ticks/s, ${seconds} s`,
        ),
      ],
      json: {
        p50Ms: ours.p50,
        p95Ms: ours.p95,
        p99Ms: ours.p99,
        longTasks: ours.longTasks,
        fps: round(ours.fps),
        leanP50Ms: lean.p50,
        leanP95Ms: lean.p95,
        leanLongTasks: lean.longTasks,
        leanFps: round(lean.fps),
      },
    }
  } finally {
    await browser.close()
  }
}
