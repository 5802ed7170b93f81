/// <reference lib="dom" />
import type { Page } from 'playwright-core'
import { rmSync } from 'node:fs'
import { findChromium } from '../test/e2e/chromium'
import { ensureDataDir } from '../src/core/persistence/data-dir'
import { openDataStores } from '../src/core/persistence/stores'
import { builtRendererOrSkip } from './chromium-page'
import {
  benchDataDir,
  benchKeys,
  referenceHost,
  summary,
  tickdeskHost,
  waitForRows,
  withSide,
} from './render/runs'
import { atMost, report, round, skipped, type BenchContext, type BenchResult } from './stats'
import { counted, figures } from './painted-frames'

/**
 * heatmap: the heatmap of a big list beside the grid. The render bench's pipeline (its feed
 * server, the built `tickdesk web` host as its own process on Enterprise, a Chromium of its own)
 * on a list of HEAT_SYMBOLS symbols with the feed at TICKS_PER_SEC; the same list and feed
 * measured first as the grid, then as the heatmap of all its symbols, in one run. Observed from
 * outside: long tasks (PerformanceObserver), CPU and PSS from /proc, main-thread time by kind,
 * and frames with a figure painted: a MutationObserver callback per batch of writes to the
 * heatmap's figures (`data-field="change"`) or the grid's prices (`data-field="last"`), so each
 * callback is one frame that painted. Tick-to-DOM is the grid's only: the heatmap shows a change
 * in percent, which does not carry the feed's send time as a price does.
 *
 * Then the lean reference page (a plain table of the same prices) on the same feed: the long tasks
 * the shared machine's load alone gives a page that does next to nothing.
 *
 * Windows: the heatmap HEAT_SECONDS (the target's 20 s), the grid and the reference page
 * SIDE_SECONDS each, so a default run ends within a minute; CPU is compared as a share of a core,
 * which does not depend on the window. --full gives each 60 s.
 */
export const HEAT_SYMBOLS = 500
export const TICKS_PER_SEC = 10_000
const HEAT_SECONDS = 20
const SIDE_SECONDS = 10

/** The heatmap's figures and the grid's prices: what a frame that painted changed. */
const FIGURES = '[data-field="change"], [data-field="last"]'

/** A data folder whose one list holds the bench's symbols (typing 500 would take minutes). */
async function bigListDataDir(): Promise<string> {
  const dir = await benchDataDir()
  await openDataStores(await ensureDataDir(dir)).watchlists.save({
    watchlists: [{ id: 'bench', name: 'Bench', symbols: benchKeys(0, HEAT_SYMBOLS) }],
    activeId: 'bench',
  })
  return dir
}

const heatFigures = (page: Page): Promise<number> =>
  page.evaluate(
    () =>
      [...document.querySelectorAll('[data-testid="heat-tile"] [data-field="change"]')].filter(
        (e) => e.textContent !== '—',
      ).length,
  )

async function untilTiles(page: Page, timeoutMs: number): Promise<number> {
  const until = Date.now() + timeoutMs
  let n = await heatFigures(page)
  while (n < HEAT_SYMBOLS && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 250))
    n = await heatFigures(page)
  }
  return n
}

export async function heatmapBench(ctx: BenchContext): Promise<BenchResult> {
  if (builtRendererOrSkip() === null) return skipped('heatmap', 'the app is not built')
  const chromium = findChromium()
  if (chromium === null) return skipped('heatmap', 'no Chromium (apt-get install chromium)')
  const seconds = ctx.full ? 60 : HEAT_SECONDS
  const side = ctx.full ? 60 : SIDE_SECONDS
  const opts = { chromium, idleSeconds: 0, spreadSeconds: 0, hotSeconds: 0, log: ctx.log }
  const dataDir = await bigListDataDir()
  try {
    const { grid, heat, tiles } = await withSide(
      { ...opts, trace: ctx.trace === true },
      tickdeskHost(dataDir, 'enterprise'),
      async ({ feed, page, url, phase }) => {
        // The list loads on a quiet feed (as a desk opens), then the market turns hot.
        const t0 = Date.now()
        feed.mode('idle')
        await page.goto(url)
        const rows = await waitForRows(page, HEAT_SYMBOLS, 60_000)
        feed.mode('hot', TICKS_PER_SEC)
        ctx.log(`heatmap bench: ${rows} rows listed in ${round((Date.now() - t0) / 1000)} s`)
        const grid = await counted(page, FIGURES, () => phase(side))
        ctx.log(
          `heatmap bench, grid: ${summary(grid.phase)}; ${grid.framesPerSec} painted frames/s`,
        )
        // No wait for a still button: on a starved machine the bench was seen waiting there
        // past a minute (two runs at load average 22), which measures the machine, not the page.
        await page.getByRole('button', { name: 'Heatmap' }).click({ force: true })
        const t1 = Date.now()
        const tiles = await untilTiles(page, 60_000)
        ctx.log(
          `heatmap bench: ${tiles} tiles with a figure in ${round((Date.now() - t1) / 1000)} s`,
        )
        const heat = await counted(page, FIGURES, () => phase(seconds))
        ctx.log(
          `heatmap bench, heatmap: ${summary(heat.phase)}; ${heat.framesPerSec} painted frames/s`,
        )
        return { grid, heat, tiles }
      },
    )
    const reference = await withSide(
      { ...opts, trace: false },
      referenceHost,
      async ({ feed, page, url, phase }) => {
        feed.mode('hot', TICKS_PER_SEC)
        await page.goto(`${url}?n=${HEAT_SYMBOLS}`)
        const p = await phase(side)
        ctx.log(`heatmap bench, reference page: ${summary(p)}`)
        return p
      },
    )
    return result(figures(grid), figures(heat), tiles, reference.sample.longTasks.length, {
      heat: seconds,
      side,
    })
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}

function result(
  g: Record<string, number>,
  h: Record<string, number>,
  tiles: number,
  refLong: number,
  secs: { heat: number; side: number },
): BenchResult {
  const load = `${HEAT_SYMBOLS} symbols, ${TICKS_PER_SEC} ticks/s, Enterprise`
  return {
    name: 'heatmap',
    rows: [
      report('heatmap: tiles with a figure', tiles, 'tiles', load),
      atMost(
        `heatmap: long tasks in ${secs.heat} s`,
        h.longTasks!,
        'tasks',
        0,
        `in ${secs.side} s: grid ${g.longTasks}, lean reference page ${refLong}; same feed, same run`,
      ),
      atMost(
        'heatmap: CPU over the grid, host + Chromium',
        g.cpu! > 0 ? round(h.cpu! / g.cpu!, 2) : Number.POSITIVE_INFINITY,
        'x grid',
        1,
        `${h.cpu}% vs ${g.cpu}% of a core (Chromium ${h.browserCpu}% vs ${g.browserCpu}%)`,
      ),
      report(
        'heatmap: frames with figures painted',
        h.framesPerSec!,
        'frames/s',
        `grid ${g.framesPerSec}; ${h.writesPerSec} vs ${g.writesPerSec} writes/s; main thread ${h.mainThreadMsPerSec} vs ${g.mainThreadMsPerSec} ms/s`,
      ),
      report(
        'heatmap: host PSS',
        h.hostPss!,
        'MB',
        `grid ${g.hostPss} MB; grid tick-to-DOM p50 / p95 ${g.p50} / ${g.p95} ms`,
      ),
    ],
    json: { grid: g, heatmap: h, tiles, referenceLongTasks: refLong },
  }
}
