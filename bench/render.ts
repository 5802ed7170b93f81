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
 *
 * Tick-to-DOM is measured on rows IN VIEW only: the renderer paints only rows on (or near) the
 * screen and holds the rest in plain state (src/renderer/src/state/row-visibility.ts), so a
 * patch of an off-screen row reaches no DOM and has no tick-to-DOM time. The page keeps its own
 * IntersectionObserver (margin 0, independent of the renderer's) over `tr[data-key]` and hands
 * the recorder only patches of rows it sees; both pages are measured the same way, and the
 * report says how many patches per second were in view.
 */
export const ROWS = 200
export const TICKS_PER_SEC = 10_000

/**
 * Installed after RECORDER_SCRIPT: wraps its __tickdeskRendered so only patches of rows in view
 * are timed, and counts all patches and those in view while recording.
 */
const IN_VIEW_FILTER_SCRIPT = `
(() => {
  const record = globalThis.__tickdeskRendered;
  const b = globalThis.__bench;
  const inView = new Set();
  b.allPatches = 0;
  b.inViewPatches = 0;
  b.observeRows = () => {
    const io = new IntersectionObserver((entries) => {
      for (const e of entries) {
        const key = e.target.dataset.key;
        if (e.isIntersecting) inView.add(key); else inView.delete(key);
      }
    });
    for (const tr of document.querySelectorAll('tr[data-key]')) io.observe(tr);
  };
  globalThis.__tickdeskRendered = (patches) => {
    // Counts restart when a recording starts (stopRecording turns it off before they are read).
    if (!b.recording) { b.counting = false; return; }
    if (!b.counting) { b.counting = true; b.allPatches = 0; b.inViewPatches = 0; }
    const seen = patches.filter((p) => inView.has(p.key));
    b.allPatches += patches.length;
    b.inViewPatches += seen.length;
    record(seen);
  };
})();
`

export interface PatchCounts {
  all: number
  inView: number
}

export interface PageRun {
  sample: PageSample
  page: Page
  patches: PatchCounts
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
  await page.addInitScript(IN_VIEW_FILTER_SCRIPT)
  await page.goto(url)
  await page.waitForFunction(
    ({ sel, n }) => document.querySelectorAll(sel).length >= n,
    { sel: rowSelector, n: ROWS },
    { timeout: 30_000 },
  )
  await page.evaluate(() =>
    (globalThis as unknown as { __bench: { observeRows(): void } }).__bench.observeRows(),
  )
  feed.start()
  await sleep(2000)
  await startRecording(page)
  for (let s = 0; s < seconds; s++) {
    await sleep(1000)
    if (during) await during(page, s + 1)
  }
  const sample = await stopRecording(page)
  const patches = await page.evaluate(() => {
    const b = (globalThis as unknown as { __bench: { allPatches: number; inViewPatches: number } })
      .__bench
    return { all: b.allPatches, inView: b.inViewPatches }
  })
  feed.stop()
  return { sample, page, patches }
}

function summarise(
  s: PageSample,
  counts: PatchCounts,
): {
  p50: number
  p95: number
  p99: number
  longTasks: number
  maxLongTask: number
  fps: number
  patches: number
  inView: number
} {
  return {
    p50: percentile(s.latencies, 50),
    p95: percentile(s.latencies, 95),
    p99: percentile(s.latencies, 99),
    longTasks: s.longTasks.length,
    maxLongTask: s.longTasks.length ? Math.max(...s.longTasks) : 0,
    fps: s.frames / s.seconds,
    patches: counts.all / s.seconds,
    inView: counts.inView / s.seconds,
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
      ours = summarise(run.sample, run.patches)
      await run.page.close()
    } finally {
      await host.close()
      await app.close()
    }
    ctx.log(
      `render ours: p50 ${ours.p50} p95 ${ours.p95} long tasks ${ours.longTasks} fps ${round(ours.fps)} in view ${round(ours.inView, 0)}/${round(ours.patches, 0)} patches/s`,
    )
    const leanPage = await startLeanPage({ symbols: ROWS, ticksPerSec: TICKS_PER_SEC })
    let lean
    try {
      const run = await runFeedInPage(browser, leanPage.url, leanPage.feed, '#rows tr', seconds)
      lean = summarise(run.sample, run.patches)
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
          round(ours.patches, 0),
          'patches/s',
          `${ROWS} rows, ${TICKS_PER_SEC} ticks/s, ${seconds} s`,
        ),
        report(
          'patches timed (rows in view)',
          round(ours.inView, 0),
          'patches/s',
          `lean page ${round(lean.inView, 0)} of ${round(lean.patches, 0)}`,
        ),
      ],
      json: {
        p50Ms: ours.p50,
        p95Ms: ours.p95,
        p99Ms: ours.p99,
        longTasks: ours.longTasks,
        fps: round(ours.fps),
        patchesPerSec: round(ours.patches, 0),
        inViewPatchesPerSec: round(ours.inView, 0),
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
