/// <reference lib="dom" />
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Page } from 'playwright-core'
import { ensureDataDir } from '../../src/core/persistence/data-dir'
import { openDataStores } from '../../src/core/persistence/stores'
import { sleep } from '../chromium-page'
import { PageProbe, RECORDER_SCRIPT, type PageSample } from './page-recorder'
import {
  FEED_KEY,
  launchBrowser,
  profileArgs,
  spawnHost,
  startFeed,
  type FeedServer,
} from './processes'
import { TreeMeter } from './proc-stats'
import { PageProfiler } from './page-profiler'

/**
 * One side of the render benchmark (Tickdesk or the reference), start to finish, in processes of
 * its own: the feed server, the host, and a fresh Chromium. Two phases, metered the same way on
 * both sides: idle (IDLE_SYMBOLS, 1 tick/s each, all in one frame), idle with spread ticks (each
 * symbol's tick its own frame at its own moment in the second) and hot (HOT_SYMBOLS, HOT_TICKS_PER_SEC).
 */
export const IDLE_SYMBOLS = 50
export const HOT_SYMBOLS = 200
export const HOT_TICKS_PER_SEC = 10_000
const WARM_UP_MS = 3000
const VIEWPORT = { width: 1400, height: 900 }

export interface Phase {
  sample: PageSample
  seconds: number
  hostCpuPct: number
  browserCpuPct: number
  hostPssMB: number
}

export interface SideResult {
  idle: Phase
  /** Idle with each symbol's tick in its own frame at its own moment (the feed's `spread`). */
  spread: Phase
  hot: Phase
  /** Tickdesk only: symbols typed in quick succession under load that ended up listed. */
  typed?: { asked: number; listed: number }
}

export interface RunOptions {
  chromium: string
  idleSeconds: number
  spreadSeconds: number
  hotSeconds: number
  log: (line: string) => void
  /** Trace the main thread during each phase (a breakdown by kind; costs time itself). */
  trace?: boolean
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

/** The lean reference page's relay as a host: a plain table of prices, no framework. */
export async function referenceHost(
  feed: FeedServer,
): Promise<{ pid: number; url: string; stop(): Promise<void> }> {
  const relay = fileURLToPath(new URL('./reference-relay.mjs', import.meta.url))
  const h = await spawnHost(
    [relay],
    { ...process.env, FEED_URL: feed.streamUrl, FEED_KEY },
    /reference at (http:\S+)/,
  )
  return { pid: h.child.pid ?? 0, url: h.url, stop: h.stop }
}

export async function runReference(opts: RunOptions): Promise<SideResult> {
  return withSide(opts, referenceHost, async ({ feed, page, url, phase }) => {
    feed.mode('idle')
    await page.goto(`${url}?n=${IDLE_SYMBOLS}`)
    const idle = await phase(opts.idleSeconds)
    opts.log(`reference idle: ${summary(idle)}`)
    feed.mode('spread')
    const spread = await phase(opts.spreadSeconds)
    opts.log(`reference idle, spread ticks: ${summary(spread)}`)
    await page.goto(`${url}?n=${HOT_SYMBOLS}`)
    feed.mode('hot', HOT_TICKS_PER_SEC)
    const hot = await phase(opts.hotSeconds)
    opts.log(`reference hot: ${summary(hot)}`)
    return { idle, spread, hot }
  })
}

/** A data folder with one empty list to type into (a fresh one would start with the demo lists). */
export async function benchDataDir(): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tickdesk-bench-render-'))
  const stores = openDataStores(await ensureDataDir(dataDir))
  await stores.watchlists.save({
    watchlists: [{ id: 'bench', name: 'Bench', symbols: [] }],
    activeId: 'bench',
  })
  return dataDir
}

/** The built `tickdesk web` host on the bench feed, as its own process. */
export function tickdeskHost(
  dataDir: string,
  plan = 'enterprise',
): (feed: FeedServer) => Promise<{ pid: number; url: string; stop(): Promise<void> }> {
  const bin = fileURLToPath(new URL('../../bin/tickdesk.js', import.meta.url))
  return async (feed) => {
    const h = await spawnHost(
      // BENCH_HOST_PROF=dir: the host writes a V8 CPU profile there (main thread and worker).
      [...profileArgs(), bin, 'web', '--port', '0'],
      {
        ...process.env,
        BROWSER: 'none',
        TICKDESK_BASE_URL: feed.baseUrl,
        TICKDESK_STREAM_URL: feed.streamUrl,
        TICKDESK_API_KEY: FEED_KEY,
        TICKDESK_PLAN: plan,
        TICKDESK_DATA_DIR: dataDir,
      },
      /Tickdesk is running at (http:\S+)/,
    )
    return { pid: h.child.pid ?? 0, url: h.url, stop: h.stop }
  }
}

export async function runTickdesk(opts: RunOptions): Promise<SideResult> {
  const dataDir = await benchDataDir()
  try {
    return await withSide(opts, tickdeskHost(dataDir), async ({ feed, page, url, phase }) => {
      feed.mode('idle')
      await page.goto(url)
      await typeSymbols(page, benchKeys(0, IDLE_SYMBOLS))
      await waitForRows(page, IDLE_SYMBOLS, 30_000)
      // Done adding: Escape leaves the field, as a trader would (no caret blinking meanwhile).
      await page.keyboard.press('Escape')
      const idle = await phase(opts.idleSeconds)
      opts.log(`tickdesk idle: ${summary(idle)}`)
      feed.mode('spread')
      const spread = await phase(opts.spreadSeconds)
      opts.log(`tickdesk idle, spread ticks: ${summary(spread)}`)
      feed.mode('hot', HOT_TICKS_PER_SEC)
      await sleep(1000)
      await typeSymbols(page, benchKeys(IDLE_SYMBOLS, HOT_SYMBOLS))
      const listed = await waitForRows(page, HOT_SYMBOLS, 30_000)
      await page.keyboard.press('Escape')
      opts.log(`tickdesk: ${listed} of ${HOT_SYMBOLS} symbols listed after typing under load`)
      const hot = await phase(opts.hotSeconds)
      opts.log(`tickdesk hot: ${summary(hot)}`)
      return { idle, spread, hot, typed: { asked: HOT_SYMBOLS, listed } }
    })
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}

export function summary(p: Phase): string {
  const lat = [...p.sample.latencies].sort((a, b) => a - b)
  const q = (f: number): number => lat[Math.min(lat.length - 1, Math.floor(f * lat.length))] ?? NaN
  const m = p.sample.mainThread
  return (
    `p50/p95 ${q(0.5)}/${q(0.95)} ms (${Math.round(lat.length / p.seconds)} writes/s), ` +
    `long tasks ${p.sample.longTasks.length}, cpu host ${p.hostCpuPct.toFixed(1)}% + browser ` +
    `${p.browserCpuPct.toFixed(1)}%, pss ${p.hostPssMB.toFixed(1)} MB; main thread ms/s: ` +
    `script ${m.script.toFixed(0)} style ${m.style.toFixed(0)} layout ${m.layout.toFixed(0)} ` +
    `other ${m.other.toFixed(0)} (task ${m.task.toFixed(0)})` +
    (p.sample.trace
      ? `\n    trace ms/s: ${Object.entries(p.sample.trace.kinds)
          .map(([k, v]) => `${k} ${v.toFixed(1)}`)
          .join(', ')}\n    top: ${p.sample.trace.top}\n    long: ${p.sample.trace.longTasks}`
      : '')
  )
}
