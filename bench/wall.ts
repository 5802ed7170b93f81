/// <reference lib="dom" />
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
} from './render/runs'
import { atMost, report, round, skipped, type BenchContext, type BenchResult } from './stats'
import { counted, figures } from './painted-frames'

/** The prices each tile and each grid row shows (what a frame that painted changed). */
const LAST = '[data-field="last"]'

/**
 * wall: the wall of mini charts beside the grid. The render bench's pipeline (its feed
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
        const grid = await counted(page, LAST, () => phase(seconds))
        ctx.log(`wall bench, grid: ${summary(grid.phase)}; ${grid.framesPerSec} price frames/s`)
        await page.getByRole('button', { name: 'Chart wall' }).click()
        await page.getByLabel('Tiles').selectOption(String(WALL_SYMBOLS))
        await page
          .locator('[data-testid="wall-tile"] canvas')
          .nth(WALL_SYMBOLS - 1)
          .waitFor({ timeout: 30_000 })
        const tiles = await page.getByTestId('wall-tile').count()
        const wall = await counted(page, LAST, () => phase(seconds))
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
    return wallResult(figures(grid), figures(wall), tiles, reference.sample.longTasks.length)
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}

/** The wall's rows, each beside the grid's figure of the same run (and the reference page's). */
function wallResult(
  g: Record<string, number>,
  w: Record<string, number>,
  tiles: number,
  refLong: number,
): BenchResult {
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
}
