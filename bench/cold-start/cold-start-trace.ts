/// <reference lib="dom" />
import type { CDPSession } from 'playwright-core'
import { startBrowserHost } from '../../src/web'
import { browserOrSkip, builtRendererOrSkip, sleep } from '../chromium-page'
import { coldDesk } from './cold-desk'
import { cachedPricesShown } from './cold-start'
import { chromiumSettled } from '../process-cpu'

/**
 * The cold start's page on a timeline: a Chromium trace of the whole browser (every process, so
 * the navigation's new renderer is in it) from the host's start, with nothing of the bench's in
 * the page, printed as the main threads' tasks of 2 ms or more and the marks that say what the
 * screen got when: the request for each file, the first layout and paint, the commits to the
 * compositor, the first contentful paint, DOMContentLoaded. Times are ms from the page's first
 * request. `--fonts` adds what the longest layout spent looking fonts up; `--poll` has Node poll
 * the page for the rows meanwhile (Playwright's waitForFunction, as the bench did before it read
 * hands-off), to see what that poll costs the page.
 *
 *   npx tsx bench/cold-start/cold-start-trace.ts [rounds=1] [--fonts] [--poll]
 *
 * For reading where the time goes; tracing costs time, so its figures are not the bench's.
 */
interface TraceEvent {
  name: string
  ph: string
  ts: number
  dur?: number
  pid: number
  tid: number
  args?: { name?: string; data?: { url?: string } }
}

const CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'blink',
  'loading',
  'navigation',
  'v8.execute',
  'toplevel',
  'fonts',
]

/** Events worth a line: what the page did, and what reached the screen. */
const TASKS = new Set([
  'RunTask',
  'ParseHTML',
  'EvaluateScript',
  'v8.evaluateModule',
  'FunctionCall',
  'UpdateLayoutTree',
  'Layout',
  'Paint',
  'Commit',
  'FireAnimationFrame',
  'TimerFire',
])
const MARKS =
  /^(ResourceSendRequest|ResourceFinish|firstPaint|firstContentfulPaint|MarkDOMContent|MarkLoad|BeginCommitCompositorFrame)$/

async function traced(cdp: CDPSession, run: () => Promise<void>): Promise<TraceEvent[]> {
  const events: TraceEvent[] = []
  cdp.on('Tracing.dataCollected', (e) => events.push(...(e.value as unknown as TraceEvent[])))
  await cdp.send('Tracing.start', {
    categories: CATEGORIES.join(','),
    transferMode: 'ReportEvents',
  })
  await run()
  const done = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()))
  await cdp.send('Tracing.end')
  await done
  return events
}

function print(events: TraceEvent[], fonts: boolean): void {
  const names = new Map<string, string>()
  for (const e of events)
    if (e.ph === 'M' && e.name === 'thread_name') names.set(`${e.pid}:${e.tid}`, e.args?.name ?? '')
  const thread = (e: TraceEvent): string => names.get(`${e.pid}:${e.tid}`) ?? ''
  const requests = events.filter((e) => e.name === 'ResourceSendRequest').map((e) => e.ts)
  const origin = Math.min(...requests)
  const ms = (ts: number): string => ((ts - origin) / 1000).toFixed(1).padStart(7)
  // The trace holds every renderer (Chromium's own window UI too): the page's is the one that
  // asked for the app's files.
  const page = events.find(
    (e) => e.name === 'ResourceSendRequest' && e.args?.data?.url?.includes('/assets/') === true,
  )?.pid
  const onMain = events
    .filter((e) => e.pid === page && thread(e) === 'CrRendererMain' && e.ts >= origin)
    .sort((a, b) => a.ts - b.ts)
  for (const e of onMain) {
    const task = e.ph === 'X' && TASKS.has(e.name) && (e.dur ?? 0) >= 2000
    if (!task && !MARKS.test(e.name)) continue
    const url = e.args?.data?.url?.split('/').pop() ?? ''
    const dur = e.dur === undefined ? '' : `${(e.dur / 1000).toFixed(1)} ms`
    console.log(`${ms(e.ts)}  ${e.name} ${dur} ${url}`.trimEnd())
  }
  if (!fonts) return
  const layouts = onMain.filter((e) => e.name === 'Layout' && e.dur !== undefined)
  const longest = layouts.sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0))[0]
  if (longest?.dur === undefined) return
  const end = longest.ts + longest.dur
  // The look-up is traced nested in itself: only the outermost of each is counted.
  let outerEnd = 0
  const lookups = onMain.filter((e) => {
    if (e.name !== 'FontCache::GetFontPlatformData' || e.ts < longest.ts || e.ts >= end)
      return false
    if (e.ts < outerEnd) return false
    outerEnd = e.ts + (e.dur ?? 0)
    return true
  })
  const spent = lookups.reduce((sum, e) => sum + (e.dur ?? 0), 0) / 1000
  console.log(
    `longest layout at ${ms(longest.ts).trim()} ms: ${(longest.dur / 1000).toFixed(1)} ms, of which ${spent.toFixed(1)} ms in ${lookups.length} font look-ups (FontCache::GetFontPlatformData)`,
  )
}

async function main(): Promise<void> {
  const rounds = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 1)
  const fonts = process.argv.includes('--fonts')
  const poll = process.argv.includes('--poll')
  const dir = builtRendererOrSkip()
  if (dir === null) throw new Error('renderer not built (npm run build)')
  const browser = await browserOrSkip()
  if (typeof browser === 'string') throw new Error(browser)
  const desk = await coldDesk(dir)
  try {
    for (let r = 0; r < rounds; r++) {
      const page = await browser.newPage()
      await chromiumSettled()
      const cdp = await browser.newBrowserCDPSession()
      const events = await traced(cdp, async () => {
        const started = await startBrowserHost(desk.host)
        await page.goto(started.host.launchUrl(), { waitUntil: 'commit' })
        if (poll) await page.waitForFunction(cachedPricesShown, desk.rows, { polling: 'raf' })
        await sleep(1_500)
        await started.close()
      })
      console.log(`== round ${r + 1}`)
      print(events, fonts)
      await page.close()
    }
  } finally {
    await browser.close()
    await desk.close()
  }
}

void main()
