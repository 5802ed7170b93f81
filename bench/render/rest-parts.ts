import type { CDPSession, Page } from 'playwright-core'
import { findChromium } from '../../test/e2e/chromium'
import { sleep } from '../chromium-page'
import { median } from '../stats'
import { launchBrowser, startFeed } from './processes'
import {
  benchDataDir,
  benchKeys,
  IDLE_SYMBOLS,
  REFERENCE_ROWS,
  referenceHost,
  tickdeskHost,
  waitForRows,
} from './runs'
import type { TraceEvent } from './trace'

/**
 * Where each page's frame at rest goes, by thread and by lifecycle phase, and what each part of
 * Tickdesk's rows costs: `npx tsx bench/render/rest-parts.ts [seconds] [rounds]` (default 10 s, 3
 * rounds). Each variant is a fresh host, feed and Chromium on the render bench's rest feed (the
 * IDLE_SYMBOLS list, 1 tick/s each, all in one frame), traced for `seconds` from 5 s after the page
 * filled; the variants alternate within a round, and each figure is the median of the rounds.
 *
 * A variant either is a page as built or hides one part of it with an injected style
 * (`visibility: hidden` keeps the layout and the writes, and drops the part's paint): what a part
 * costs is the page's figure minus the variant's. Times are on the thread clock (the time each
 * thread ran), in ms a second. This is a diagnostic, not a target: tracing costs time, and the
 * render bench's CPU from /proc is the figure the targets read.
 */
interface Variant {
  name: string
  page: 'tickdesk' | 'reference'
  css?: string
}

const VARIANTS: readonly Variant[] = [
  { name: 'lean page', page: 'reference' },
  { name: 'lean page, rows hidden', page: 'reference', css: 'tbody{visibility:hidden}' },
  { name: 'Tickdesk', page: 'tickdesk' },
  { name: 'Tickdesk, rows hidden', page: 'tickdesk', css: '.watchlist tbody{visibility:hidden}' },
  {
    name: 'Tickdesk, figures only',
    page: 'tickdesk',
    css: '.watchlist tbody th,.watchlist tbody td:not(.num){visibility:hidden}',
  },
  {
    name: 'Tickdesk, figures hidden',
    page: 'tickdesk',
    css: '.watchlist .num .v{visibility:hidden}',
  },
  {
    name: 'Tickdesk, no icons',
    page: 'tickdesk',
    css: '.watchlist .actions{visibility:hidden}',
  },
]

/** The columns: [label, thread, event names summed]. */
const COLUMNS: readonly (readonly [string, string, readonly string[]])[] = [
  ['main', 'CrRendererMain', ['ThreadControllerImpl::RunTask']],
  ['script', 'CrRendererMain', ['FunctionCall']],
  ['layout', 'CrRendererMain', ['Layout']],
  ['prepaint', 'CrRendererMain', ['PrePaint']],
  ['paint', 'CrRendererMain', ['Paint']],
  ['layerize', 'CrRendererMain', ['Layerize']],
  ['raster', 'ThreadPoolForegroundWorker', ['RasterTask']],
  ['compositor', 'Compositor', ['ThreadControllerImpl::RunTask']],
  ['display', 'VizCompositorThread', ['ThreadControllerImpl::RunTask']],
]

const CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'toplevel',
  'cc',
  'viz',
]

async function trace(cdp: CDPSession, seconds: number): Promise<TraceEvent[]> {
  const events: TraceEvent[] = []
  cdp.on('Tracing.dataCollected', (e) => events.push(...(e.value as unknown as TraceEvent[])))
  await cdp.send('Tracing.start', {
    categories: CATEGORIES.join(','),
    transferMode: 'ReportEvents',
  })
  await sleep(seconds * 1000)
  const done = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()))
  await cdp.send('Tracing.end')
  await done
  return events
}

/** ms a second per column: complete events of the named threads (all such threads summed). */
function sums(events: readonly TraceEvent[], seconds: number): number[] {
  const threadName = new Map<string, string>()
  for (const e of events)
    if (e.name === 'thread_name' && e.args?.name) threadName.set(`${e.pid}:${e.tid}`, e.args.name)
  return COLUMNS.map(([, thread, names]) => {
    let us = 0
    for (const e of events) {
      if (e.ph !== 'X' || !names.includes(e.name)) continue
      if (threadName.get(`${e.pid}:${e.tid}`) !== thread) continue
      us += e.tdur ?? e.dur ?? 0
    }
    return us / 1000 / seconds
  })
}

async function openPage(page: Page, v: Variant, url: string): Promise<void> {
  if (v.page === 'tickdesk') {
    await page.goto(url)
    const rows = await waitForRows(page, IDLE_SYMBOLS, 30_000)
    if (rows < IDLE_SYMBOLS) throw new Error(`${v.name}: ${rows} of ${IDLE_SYMBOLS} rows showed`)
  } else {
    await page.goto(`${url}?n=${IDLE_SYMBOLS}&rows=${REFERENCE_ROWS}`)
  }
  if (v.css !== undefined) await page.addStyleTag({ content: v.css })
}

async function measure(chromiumPath: string, v: Variant, seconds: number): Promise<number[]> {
  const feed = await startFeed()
  feed.mode('idle')
  const start =
    v.page === 'tickdesk'
      ? tickdeskHost(await benchDataDir(benchKeys(0, IDLE_SYMBOLS)))
      : referenceHost
  const host = await start(feed)
  const chromium = await launchBrowser(chromiumPath)
  try {
    const page = await chromium.browser.newPage({ viewport: { width: 1280, height: 800 } })
    await openPage(page, v, host.url)
    await sleep(5000)
    const cdp = await page.context().newCDPSession(page)
    return sums(await trace(cdp, seconds), seconds)
  } finally {
    await chromium.close()
    await host.stop()
    feed.close()
  }
}

function positive(arg: string | undefined, fallback: number, what: string): number {
  if (arg === undefined) return fallback
  const n = Number(arg)
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`${what}: a whole number of at least 1, not ${arg}`)
  return n
}

const chromium = findChromium()
if (chromium === null) throw new Error('no Chromium (apt-get install chromium)')
const seconds = positive(process.argv[2], 10, 'seconds')
const rounds = positive(process.argv[3], 3, 'rounds')
const results = new Map<string, number[][]>(VARIANTS.map((v) => [v.name, []]))
for (let r = 1; r <= rounds; r++) {
  for (const v of VARIANTS) {
    const figures = await measure(chromium, v, seconds)
    results.get(v.name)?.push(figures)
    console.error(`round ${r}, ${v.name}: ${figures.map((f) => f.toFixed(2)).join(' ')}`)
  }
}
const width = Math.max(...VARIANTS.map((v) => v.name.length))
console.log(`ms a second, median of ${rounds} rounds of ${seconds} s (thread clock)`)
console.log(`${''.padEnd(width)} ${COLUMNS.map(([label]) => label.padStart(11)).join('')}`)
for (const v of VARIANTS) {
  const runs = results.get(v.name) ?? []
  const cells = COLUMNS.map((_, i) =>
    median(runs.map((f) => f[i] ?? 0))
      .toFixed(2)
      .padStart(11),
  )
  console.log(`${v.name.padEnd(width)} ${cells.join('')}`)
}
process.exit(0)
