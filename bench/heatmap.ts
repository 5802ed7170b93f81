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
 * Then the lean reference page (a plain table of the same prices) on the same feed for the same
 * time: the long tasks the shared machine's load alone gives a page that does next to nothing.
 */
export const HEAT_SYMBOLS = 500
export const TICKS_PER_SEC = 10_000

const FRAME_COUNTER = `(() => {
  const c = { frames: 0, writes: 0 };
  Object.defineProperty(globalThis, '__heatFrames', { value: c, configurable: true });
  new MutationObserver((records) => {
    let n = 0;
    for (const r of records) {
      const node = r.target.nodeType === 3 ? r.target.parentElement : r.target;
      if (node && node.closest && node.closest('[data-field="change"], [data-field="last"]')) n++;
    }
    if (n > 0) { c.frames++; c.writes += n; }
  }).observe(document, { subtree: true, childList: true, characterData: true });
})()`

interface Counted {
  phase: Phase
  framesPerSec: number
  writesPerSec: number
}

async function counted(page: Page, run: () => Promise<Phase>): Promise<Counted> {
  await page.evaluate(FRAME_COUNTER)
  const phase = await run()
  const c = await page.evaluate(
    () =>
      (globalThis as unknown as { __heatFrames: { frames: number; writes: number } }).__heatFrames,
  )
  return {
    phase,
    framesPerSec: round(c.frames / phase.seconds, 1),
    writesPerSec: round(c.writes / phase.seconds, 0),
  }
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
    writesPerSec: c.writesPerSec,
    mainThreadMsPerSec: round(p.sample.mainThread.task, 0),
  }
}

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
  const seconds = ctx.full ? 60 : 20
  const opts = { chromium, idleSeconds: 0, spreadSeconds: 0, hotSeconds: 0, log: ctx.log }
  const dataDir = await bigListDataDir()
  try {
    const { grid, heat, tiles } = await withSide(
      { ...opts, trace: ctx.trace === true },
      tickdeskHost(dataDir, 'enterprise'),
      async ({ feed, page, url, phase }) => {
        feed.mode('hot', TICKS_PER_SEC)
        await page.goto(url)
        const rows = await waitForRows(page, HEAT_SYMBOLS, 60_000)
        ctx.log(`heatmap bench: ${rows} rows listed`)
        const grid = await counted(page, () => phase(seconds))
        ctx.log(
          `heatmap bench, grid: ${summary(grid.phase)}; ${grid.framesPerSec} painted frames/s`,
        )
        await page.getByRole('button', { name: 'Heatmap' }).click()
        const tiles = await untilTiles(page, 60_000)
        const heat = await counted(page, () => phase(seconds))
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
        const p = await phase(seconds)
        ctx.log(`heatmap bench, reference page: ${summary(p)}`)
        return p
      },
    )
    return result(figures(grid), figures(heat), tiles, reference.sample.longTasks.length)
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}

function result(
  g: Record<string, number>,
  h: Record<string, number>,
  tiles: number,
  refLong: number,
): BenchResult {
  const load = `${HEAT_SYMBOLS} symbols, ${TICKS_PER_SEC} ticks/s, Enterprise`
  return {
    name: 'heatmap',
    rows: [
      report('heatmap: tiles with a figure', tiles, 'tiles', load),
      atMost(
        'heatmap: long tasks',
        h.longTasks!,
        'tasks',
        0,
        `grid ${g.longTasks}; lean reference page ${refLong}, same feed, same run`,
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
