import { readFileSync } from 'node:fs'
import { findChromium } from '../../test/e2e/chromium'
import {
  benchDataDir,
  benchKeys,
  IDLE_SYMBOLS,
  runReference,
  summary,
  tickdeskHost,
  waitForRows,
  withSide,
  type Phase,
} from './runs'

/**
 * The desk left open, at rest: `npx tsx bench/render/rest-hour.ts [minutes]` (default
 * 1,10,20,30,40,50). The render bench's idle phase starts as soon as the desk has filled, when its
 * sparklines gain a point with most ticks (sparkline.ts: the step grows with the span, to a minute
 * after an hour) and the host's heap is still settling; a trader's desk has been open for hours.
 * So: the lean page's idle phase, then one Tickdesk desk (the IDLE_SYMBOLS list saved before it
 * starts, the feed at 1 tick/s each) measured for PHASE_SECONDS at each of the given minutes after
 * it filled, then the lean page again. Each line: CPU from /proc (host tree + Chromium tree), and
 * the machine's load when the phase ended. Ratios are read against the lean page's two runs.
 */
const PHASE_SECONDS = 30

const chromium = findChromium()
if (chromium === null) throw new Error('no Chromium (apt-get install chromium)')
const minutes = (process.argv[2] ?? '1,10,20,30,40,50').split(',').map(Number)
if (minutes.some((m) => !Number.isFinite(m) || m < 0))
  throw new Error(`minutes: a comma-separated list of numbers, not ${process.argv[2]}`)

const opts = {
  chromium,
  idleSeconds: PHASE_SECONDS,
  spreadSeconds: 0,
  hotSeconds: 0,
  log: () => undefined,
}
const load = (): string => readFileSync('/proc/loadavg', 'utf8').split(' ')[0] ?? '?'
const at = (): string => new Date().toISOString().slice(11, 19)
function line(who: string, p: Phase): void {
  const cpu = p.hostCpuPct + p.browserCpuPct
  console.log(`${at()} ${who}, load ${load()}: CPU ${cpu.toFixed(2)}% of a core; ${summary(p)}`)
}

async function reference(when: string): Promise<void> {
  const r = await runReference(opts)
  if (r.idle) line(`lean page ${when}`, r.idle)
}

await reference('before')
const dataDir = await benchDataDir(benchKeys(0, IDLE_SYMBOLS))
await withSide(opts, tickdeskHost(dataDir), async ({ feed, page, url, phase }) => {
  feed.mode('idle')
  await page.goto(url)
  await waitForRows(page, IDLE_SYMBOLS, 30_000)
  const filled = Date.now()
  for (const m of minutes) {
    const wait = filled + m * 60_000 - Date.now()
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
    line(`Tickdesk ${m} min after it filled`, await phase(PHASE_SECONDS))
  }
})
await reference('after')
