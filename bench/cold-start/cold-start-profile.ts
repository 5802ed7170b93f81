/// <reference lib="dom" />
import { subscribe } from 'node:diagnostics_channel'
import type { IncomingMessage } from 'node:http'
import type { CDPSession, Page } from 'playwright-core'
import { startBrowserHost } from '../../src/web'
import { browserOrSkip, builtRendererOrSkip } from '../chromium-page'
import { coldDesk, type ColdDesk } from './cold-desk'
import { cachedPricesShown } from './cold-start'
import { sumSamples, type Profile, type ProfileNode } from '../cpu-profile'
import { chromiumSettled, cpuLine, ProcessCpu } from '../process-cpu'

/**
 * Where the cold start's time goes (cold-start.ts measures only its total): the same start, with
 * the host's steps timed from outside, when the page's request reached the host and was answered
 * (Node's http diagnostics channel), the CPU each kind of process used meanwhile (/proc: this
 * host, the page's renderer, Chromium's new window's own UI, the browser process), and a CPU
 * profile of the page from navigation to the cached prices, summed by script chunk (native:
 * Chromium's own parse, compile, style, layout, paint).
 *
 *   npx tsx bench/cold-start/cold-start-profile.ts [rounds=4] [--unsettled]
 *
 * --unsettled starts each round at once after opening the page, while Chromium still builds the
 * new window's own UI (what the bench did before it waited for that).
 *
 * Build the renderer unminified (electron.vite.config.ts, `minify: false`) for function names.
 */

async function startProfile(page: Page): Promise<CDPSession> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Profiler.enable')
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 })
  await cdp.send('Profiler.start')
  return cdp
}

/** The page's own Navigation, Resource and Paint Timing entries, as one line. */
function pageTimings(page: Page): Promise<string> {
  return page.evaluate(() => {
    // No named function in here: tsx's helpers (__name) do not exist in the page.
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming
    const css = performance
      .getEntriesByType('resource')
      .filter((r) => r.name.endsWith('.css'))
      .map((r) => Math.round((r as PerformanceResourceTiming).responseEnd))
    const paint = performance.getEntriesByType('paint').find((p) => p.name === 'first-paint')
    return (
      `response ${Math.round(nav.responseEnd)}, DOMContentLoaded ${Math.round(nav.domContentLoadedEventEnd)}, ` +
      `stylesheet in ${css.join('/')}, first paint ${paint ? Math.round(paint.startTime) : '-'}`
    )
  })
}

/** When the host saw the page's request ("/") arrive and its answer finish, ms after `since`. */
const pageRequest = { since: 0, arrived: NaN, answered: NaN }
const isPage = (m: unknown): boolean =>
  ((m as { request?: IncomingMessage }).request?.url ?? '').split('?')[0] === '/'
subscribe('http.server.request.start', (m) => {
  if (isPage(m)) pageRequest.arrived = performance.now() - pageRequest.since
})
subscribe('http.server.response.finish', (m) => {
  if (isPage(m)) pageRequest.answered = performance.now() - pageRequest.since
})

async function oneRound(desk: ColdDesk, page: Page): Promise<Profile> {
  const { rows } = desk
  const cpu = new ProcessCpu()
  cpu.start()
  const t0 = performance.now()
  Object.assign(pageRequest, { since: t0, arrived: NaN, answered: NaN })
  // `tickdesk web`'s start-up: the server listens beside the service's start (browser-host.ts).
  const started = await startBrowserHost(desk.host)
  const t1 = performance.now()
  let serviceMs = NaN
  void started.ready.then(() => (serviceMs = performance.now() - t0))
  const host = started.host
  const cdp = await startProfile(page)
  const t2 = performance.now()
  await page.goto(host.launchUrl(), { waitUntil: 'commit' })
  const t3 = performance.now()
  const wait = { timeout: 30_000, polling: 'raf' as const }
  await page.waitForFunction(() => document.querySelector('[aria-rowcount]') !== null, null, wait)
  const t4 = performance.now()
  await page.waitForFunction(cachedPricesShown, rows, wait)
  const t5 = performance.now()
  const used = cpu.stop()
  const { profile } = (await cdp.send('Profiler.stop')) as { profile: Profile }
  const ms = (a: number, b: number): number => Math.round(b - a)
  console.log(
    `host listening ${ms(t0, t1)} ms (the service started at ${Math.round(serviceMs)}), ` +
      `profiler on ${ms(t1, t2)}, navigation committed ${ms(t2, t3)}, ` +
      `grid ${ms(t3, t4)}, cached prices ${ms(t4, t5)}: ${ms(t0, t5)} ms in all`,
  )
  console.log(
    `  the page's request at the host: arrived ${Math.round(pageRequest.arrived)} ms, ` +
      `answered ${Math.round(pageRequest.answered)} (the launch code's redirect before it)`,
  )
  console.log(`  in the page, ms from navigation start: ${await pageTimings(page)}`)
  console.log(`  CPU ms in the ${ms(t0, t5)} ms, by process: ${cpuLine(used)}`)
  await started.close()
  return profile
}

async function main(): Promise<void> {
  const rounds = Number(process.argv[2] ?? 4)
  const dir = builtRendererOrSkip()
  const browser = await browserOrSkip()
  if (dir === null || typeof browser === 'string')
    throw new Error('needs the built renderer and Chromium')
  const desk = await coldDesk(dir)
  try {
    let profile: Profile | null = null
    for (let r = 0; r < rounds; r++) {
      const page = await browser.newPage()
      // As the bench: Chromium's own new-window work done before the clock starts.
      if (!process.argv.includes('--unsettled')) await chromiumSettled()
      profile = await oneRound(desk, page)
      await page.close()
    }
    if (profile === null) return
    const chunk = (n: ProfileNode): string => n.callFrame.url.split('/').pop() || '(native)'
    const fn = (n: ProfileNode): string =>
      `${n.callFrame.functionName || '(anonymous)'} ${chunk(n)}:${n.callFrame.lineNumber}`
    console.log(
      `last round, ms by chunk: ${sumSamples(profile, chunk)
        .slice(0, 8)
        .map(([k, v]) => `${k} ${v.toFixed(0)}`)
        .join(', ')}`,
    )
    for (const [k, v] of sumSamples(profile, fn).slice(0, 15))
      console.log(`  ${v.toFixed(1)} ms  ${k}`)
  } finally {
    await browser.close()
    await desk.close()
  }
}

await main()
