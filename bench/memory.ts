import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { startWebHost } from '../src/web'
import { BenchHost } from './bench-host'
import type { Browser, Page } from 'playwright-core'
import { browserOrSkip, builtRendererOrSkip, heapAfterGc, sleep } from './chromium-page'
import type { SyntheticFeed } from './synthetic-feed'
import { atMost, report, round, type BenchContext, type BenchResult, type BenchRow } from './stats'

/**
 * memory: (1) engine heap, in a fresh child process with --expose-gc (bench/engine-heap.ts);
 * (2) renderer JS heap over a compressed session: 10 minutes of a 1k ticks/s day (600k ticks)
 * delivered at 10k ticks/s in 60 s to the real renderer, heap after forced GC sampled every
 * 10 s; growth = last vs first sample after warm-up. --full runs 10 real minutes at 10k ticks/s.
 */
const run = promisify(execFile)
const ROWS = 200
const TICKS_PER_SEC = 10_000

/** Opens the page, waits for its rows, runs the feed for `seconds`, calling `during` each second. */
async function runFeedInPage(
  browser: Browser,
  url: string,
  feed: SyntheticFeed,
  seconds: number,
  during: (page: Page, elapsedS: number) => Promise<void>,
): Promise<{ page: Page }> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } })
  await page.goto(url)
  await page.waitForFunction(
    (n) => Number(document.querySelector('[aria-rowcount]')?.getAttribute('aria-rowcount')) > n,
    ROWS,
    { timeout: 30_000 },
  )
  feed.start()
  for (let s = 0; s < seconds; s++) {
    await sleep(1000)
    await during(page, s + 1)
  }
  feed.stop()
  return { page }
}

async function engineHeap(): Promise<{ engineHeapMB: number; processHeapMB: number }> {
  const script = fileURLToPath(new URL('./engine-heap.ts', import.meta.url))
  const { stdout } = await run(process.execPath, ['--expose-gc', '--import', 'tsx', script])
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as {
    engineHeapMB: number
    processHeapMB: number
  }
}

export async function memoryBench(ctx: BenchContext): Promise<BenchResult> {
  const engine = await engineHeap()
  ctx.log(`memory: engine ${round(engine.engineHeapMB)} MB`)
  const rows: BenchRow[] = [
    atMost(
      'engine heap, 200 symbols x 1000 bars + 200k ticks',
      round(engine.engineHeapMB),
      'MB',
      50,
      'JS heap + typed arrays',
    ),
  ]
  const json: Record<string, number> = { engineHeapMB: round(engine.engineHeapMB) }
  const dir = builtRendererOrSkip()
  const browser = dir === null ? 'renderer not built' : await browserOrSkip()
  if (typeof browser === 'string' || dir === null) {
    rows.push(report(`renderer heap: SKIPPED (${String(browser)})`, Number.NaN, ''))
    return { name: 'memory', rows, json }
  }
  const seconds = ctx.full ? 600 : 60
  // Heap is sampled with the feed paused and the page drained, so messages still queued in an
  // overloaded page do not read as growth: once after 10 s of warm-up, once at the end.
  const samples: number[] = []
  const sampleIdle = async (page: Page, feed: SyntheticFeed): Promise<void> => {
    feed.stop()
    await sleep(2000)
    const cdp = await page.context().newCDPSession(page)
    samples.push(await heapAfterGc(cdp))
    await cdp.detach()
  }
  try {
    const app = new BenchHost({ symbols: ROWS, ticksPerSec: TICKS_PER_SEC })
    const host = await startWebHost({ app, rendererDir: dir })
    try {
      const r = await runFeedInPage(
        browser,
        host.launchUrl(),
        app.feed,
        seconds,
        async (page, s) => {
          if (s !== 10) return
          await sampleIdle(page, app.feed)
          app.feed.start()
        },
      )
      await sampleIdle(r.page, app.feed)
      await r.page.close()
    } finally {
      await host.close()
      await app.close()
    }
  } finally {
    await browser.close()
  }
  const first = samples[0] ?? Number.NaN
  const last = samples.at(-1) ?? Number.NaN
  const growthPct = ((last - first) / first) * 100
  ctx.log(`memory: renderer heap ${round(first / 1048576)} -> ${round(last / 1048576)} MB`)
  rows.push(
    atMost(
      'renderer heap growth, idle after 10 s vs idle at end',
      round(growthPct),
      '%',
      10,
      `${round(first / 1048576)} -> ${round(last / 1048576)} MB; ${ctx.full ? '10 min real' : '10 min at 1k ticks/s compressed to 60 s'}`,
    ),
    report('renderer heap at end', round(last / 1048576), 'MB'),
  )
  json.rendererHeapGrowthPct = round(growthPct)
  json.rendererHeapStartMB = round(first / 1048576)
  json.rendererHeapEndMB = round(last / 1048576)
  return { name: 'memory', rows, json }
}
