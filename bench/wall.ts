/// <reference lib="dom" />
import type { Page } from 'playwright-core'
import { rmSync } from 'node:fs'
import { findChromium } from '../test/e2e/chromium'
import { builtRendererOrSkip } from './chromium-page'
import {
  benchDataDir,
  benchKeys,
  referenceHost,
  summary,
  tickdeskHost,
  typeSymbols,
  waitForRows,
  withSide,
  type Phase,
} from './render/runs'
import {
  atMost,
  percentile,
  report,
  round,
  skipped,
  type BenchContext,
  type BenchResult,
} from './stats'

/**
 * wall: the wall of mini charts beside the grid (issue 40). The render bench's pipeline (its feed
 * server, the built `tickdesk web` host as its own process, a Chromium of its own) on a Pro list of
 * WALL_SYMBOLS symbols at TICKS_PER_SYMBOL ticks/s each; the same list and feed measured first as
 * the grid, then as the wall of WALL_SYMBOLS tiles, in one run. Observed from outside: long tasks,
 * CPU and PSS from /proc, tick-to-DOM from the prices the page shows (each tile's price text
 * carries data-field="last", as a grid cell does), and frames with a price painted: a
 * MutationObserver callback per batch of price writes (the painter draws every tile of a price
 * frame in one pass, so each callback is one frame that redrew).
 *
 * Then the lean reference page (a plain table of the same 30 prices, render/reference-page.html)
 * on the same feed for the same time, in the same run: what the shared machine's load alone costs
 * a page in long tasks, since other sessions build and test beside the bench.
 */
export const WALL_SYMBOLS = 30
export const TICKS_PER_SYMBOL = 10

const FRAME_COUNTER = `(() => {
  const c = { frames: 0, writes: 0 };
  Object.defineProperty(globalThis, '__wallFrames', { value: c, configurable: true });
  new MutationObserver((records) => {
    let n = 0;
    for (const r of records) {
      const node = r.target.nodeType === 3 ? r.target.parentElement : r.target;
      if (node && node.closest && node.closest('[data-field="last"]')) n++;
    }
    if (n > 0) { c.frames++; c.writes += n; }
  }).observe(document, { subtree: true, childList: true, characterData: true });
})()`

interface Counted {
  phase: Phase
  framesPerSec: number
  heapMB: number
}

async function counted(page: Page, run: () => Promise<Phase>): Promise<Counted> {
  await page.evaluate(FRAME_COUNTER)
  const phase = await run()
  const { frames, heap } = await page.evaluate(() => {
    const g = globalThis as unknown as {
      __wallFrames: { frames: number }
      performance: { memory?: { usedJSHeapSize: number } }
    }
    return { frames: g.__wallFrames.frames, heap: g.performance.memory?.usedJSHeapSize ?? 0 }
  })
  return { phase, framesPerSec: round(frames / phase.seconds, 1), heapMB: round(heap / 2 ** 20) }
}

function figures(c: Counted): Record<string, number> {
  const p = c.phase
  return {
    p50: percentile(p.sample.latencies, 50),
    p95: percentile(p.sample.latencies, 95),
    longTasks: p.sample.longTasks.length,
    cpu: round(p.hostCpuPct + p.browserCpuPct),
    hostCpu: round(p.hostCpuPct),
    browserCpu: round(p.browserCpuPct),
    hostPss: round(p.hostPssMB),
    framesPerSec: c.framesPerSec,
    heapMB: c.heapMB,
    mainThreadMsPerSec: round(p.sample.mainThread.task, 0),
  }
}

export async function wallBench(ctx: BenchContext): Promise<BenchResult> {
  if (builtRendererOrSkip() === null) return skipped('wall', 'the app is not built')
  const chromium = findChromium()
  if (chromium === null) return skipped('wall', 'no Chromium (apt-get install chromium)')
  const seconds = ctx.full ? 60 : 20
  const opts = { chromium, idleSeconds: 0, spreadSeconds: 0, hotSeconds: 0, log: ctx.log }
  const dataDir = await benchDataDir()
  try {
    const { grid, wall, tiles } = await withSide(
      { ...opts, trace: ctx.trace === true },
      tickdeskHost(dataDir, 'pro'),
      async ({ feed, page, url, phase }) => {
        feed.mode('hot', WALL_SYMBOLS * TICKS_PER_SYMBOL)
        await page.goto(url)
        await typeSymbols(page, benchKeys(0, WALL_SYMBOLS))
        await waitForRows(page, WALL_SYMBOLS, 30_000)
        await page.keyboard.press('Escape')
        const grid = await counted(page, () => phase(seconds))
        ctx.log(`wall bench, grid: ${summary(grid.phase)}; ${grid.framesPerSec} price frames/s`)
        await page.getByRole('button', { name: 'Chart wall' }).click()
        await page.getByLabel('Tiles').selectOption(String(WALL_SYMBOLS))
        await page
          .locator('[data-testid="wall-tile"] canvas')
          .nth(WALL_SYMBOLS - 1)
          .waitFor({ timeout: 30_000 })
        const tiles = await page.getByTestId('wall-tile').count()
        const wall = await counted(page, () => phase(seconds))
        ctx.log(`wall bench, wall: ${summary(wall.phase)}; ${wall.framesPerSec} price frames/s`)
        return { grid, wall, tiles }
      },
    )
    const reference = await withSide(
      { ...opts, trace: false },
      referenceHost,
      async ({ feed, page, url, phase }) => {
        feed.mode('hot', WALL_SYMBOLS * TICKS_PER_SYMBOL)
        await page.goto(`${url}?n=${WALL_SYMBOLS}`)
        const p = await phase(seconds)
        ctx.log(`wall bench, reference page: ${summary(p)}`)
        return p
      },
    )
    const g = figures(grid)
    const w = figures(wall)
    const refLong = reference.sample.longTasks.length
    const load = `${WALL_SYMBOLS} symbols, ${TICKS_PER_SYMBOL} ticks/s each, Pro`
    return {
      name: 'wall',
      rows: [
        report('wall: tiles drawn', tiles, 'tiles', load),
        atMost(
          'wall: long tasks',
          w.longTasks!,
          'tasks',
          0,
          `grid ${g.longTasks}; lean reference page ${refLong}, same feed, same run`,
        ),
        atMost(
          'wall: CPU over the grid, host + Chromium',
          g.cpu! > 0 ? round(w.cpu! / g.cpu!, 2) : Number.POSITIVE_INFINITY,
          'x grid',
          1.5,
          `${w.cpu}% vs ${g.cpu}% of a core (Chromium ${w.browserCpu}% vs ${g.browserCpu}%)`,
        ),
        report(
          'wall: frames with prices painted',
          w.framesPerSec!,
          'frames/s',
          `grid ${g.framesPerSec}; main thread ${w.mainThreadMsPerSec} vs ${g.mainThreadMsPerSec} ms/s`,
        ),
        report('wall: tick-to-DOM p95', w.p95!, 'ms', `p50 ${w.p50}; grid ${g.p50} / ${g.p95} ms`),
        report(
          'wall: page JS heap',
          w.heapMB!,
          'MB',
          `grid ${g.heapMB} MB; host PSS ${w.hostPss} vs ${g.hostPss} MB`,
        ),
      ],
      json: { grid: g, wall: w, tiles, referenceLongTasks: refLong },
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}
