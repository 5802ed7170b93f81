/**
 * What the desk soak reads from outside (scripts/desk-soak.ts): the host it starts, its process
 * in /proc, its data folder, the page through the DevTools protocol and as a trader reads it, and
 * the service as another customer asks it.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { CDPSession, Page } from 'playwright-core'
import { printedAddress } from '../../test/e2e/launch'
import type { SimServer } from '../../src/sim'

const BIN = join(resolve(import.meta.dirname, '..', '..'), 'bin', 'tickdesk.js')
export const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

export const SYMBOLS = [
  'crypto:BTCUSDT',
  'crypto:ETHUSDT',
  'crypto:SOLUSDT',
  'crypto:XRPUSDT',
  'crypto:DOGEUSDT',
  'crypto:BNBUSDT',
  'crypto:ADAUSDT',
  'crypto:AVAXUSDT',
  'crypto:LINKUSDT',
  'crypto:DOTUSDT',
  'usdt-futures:BTCUSDT',
  'usdt-futures:ETHUSDT',
  'fx:EURUSD',
  'fx:USDJPY',
  'commodity:XAUUSD',
  'futures:ES1!',
  'index:SPX',
  'hk:00700',
  'cn:600519',
  'crypto:LTCUSDT',
]

export interface Host {
  child: ChildProcess
  url: string
  dir: string
}

export async function startHost(sim: SimServer): Promise<Host> {
  const dir = mkdtempSync(join(tmpdir(), 'tickdesk-soak-data-'))
  const child = spawn(process.execPath, [BIN, 'web', '--port', '0'], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      BROWSER: 'none',
      TICKDESK_BASE_URL: sim.url,
      TICKDESK_API_KEY: sim.keys.pro,
      TICKDESK_PLAN: 'pro',
      TICKDESK_DATA_DIR: dir,
      TICKDESK_PROFILE: `soak-${process.pid}`,
      DBUS_SESSION_BUS_ADDRESS: '',
      DISPLAY: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const { url } = await printedAddress(child, 'tickdesk web')
  return { child, url, dir }
}

/**
 * The host's memory in MB and its open file descriptors, from /proc. PSS counts a share of the
 * pages it shares with other processes (the node binary and libraries, ~50 MB here), and that
 * share grows when other node processes on the machine exit; Pss_Anon is its own memory (both
 * V8 heaps, malloc), where a leak would show.
 */
export function hostProc(pid: number): { pssMB: number; anonMB: number; fds: number } {
  const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8')
  const kB = (field: string): number =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(rollup)?.[1] ?? NaN)
  return {
    pssMB: kB('Pss') / 1024,
    anonMB: kB('Pss_Anon') / 1024,
    fds: readdirSync(`/proc/${pid}/fd`).length,
  }
}

/** Sizes in KB of what the host keeps in its data folder, by kind. */
export function fileSizes(dir: string): Record<string, number> {
  const sizes: Record<string, number> = { cache: 0, logs: 0, alerts: 0, other: 0 }
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const p = join(d, name)
      const st = statSync(p)
      if (st.isDirectory()) walk(p)
      else {
        const kind = /quote|bars|cache/.test(name)
          ? 'cache'
          : d.endsWith('logs')
            ? 'logs'
            : /alert/.test(name)
              ? 'alerts'
              : 'other'
        sizes[kind] = (sizes[kind] ?? 0) + st.size / 1024
      }
    }
  }
  walk(dir)
  return sizes
}

export async function pageCounters(
  cdp: CDPSession,
): Promise<{ heapMB: number; nodes: number; listeners: number }> {
  await cdp.send('HeapProfiler.collectGarbage')
  await cdp.send('HeapProfiler.collectGarbage')
  const heap = await cdp.send('Runtime.getHeapUsage')
  const dom = (await cdp.send('Memory.getDOMCounters')) as {
    nodes: number
    jsEventListeners: number
  }
  return { heapMB: heap.usedSize / 2 ** 20, nodes: dom.nodes, listeners: dom.jsEventListeners }
}

/**
 * Milliseconds until prices are fresh again: BTC's price has moved (a fresh quote arrived, by
 * the stream or a poll) and the feed is not offline or reconnecting.
 */
export async function freshAgain(page: Page, startedAt: number): Promise<number> {
  const last = page.locator('tbody tr[data-key="crypto:BTCUSDT"] [data-field="last"]')
  const before = await last.textContent({ timeout: 5_000 }).catch(() => null)
  for (;;) {
    const state = await page
      .getByTestId('connection-state')
      .textContent()
      .catch(() => '')
    const now = await last.textContent({ timeout: 5_000 }).catch(() => null)
    if (/Live|Polling/.test(state ?? '') && now !== before) return Date.now() - startedAt
    if (Date.now() - startedAt > 60_000) return Number.POSITIVE_INFINITY
    await pause(100)
  }
}

export const CRYPTO = SYMBOLS.filter((k) => k.startsWith('crypto:')).map((k) =>
  k.slice('crypto:'.length),
)

/**
 * The service's previous close of the crypto rows, asked as another customer would (another key,
 * so the host's meters are untouched): what a change % on the new day is measured from.
 */
export async function servicePrevCloses(sim: SimServer): Promise<Map<string, number>> {
  const res = await fetch(`${sim.url}/api/v1/market/crypto/quote?symbols=${CRYPTO.join(',')}`, {
    headers: { 'X-API-Key': sim.keys.enterprise },
  })
  const body = (await res.json()) as { data: Array<{ symbol: string; prevClose: number }> }
  return new Map(body.data.map((r) => [`crypto:${r.symbol}`, r.prevClose]))
}

/** The crypto rows of the page as a trader reads them: key, last and change % as shown. */
export function shownRows(page: Page): Promise<string[][]> {
  return page.$$eval('tbody tr[data-key^="crypto:"]', (trs) =>
    trs.map((tr) => [
      tr.getAttribute('data-key') ?? '',
      tr.querySelector('[data-field="last"]')?.textContent ?? '',
      tr.querySelector('[data-field="changePercent"]')?.textContent ?? '',
    ]),
  )
}

/**
 * The rows whose shown change % is not measured from these previous closes (beyond the display's
 * two decimals); null when no row could be read.
 */
export function rowsOffDay(rows: string[][], closes: Map<string, number>): string[] | null {
  const num = (text: string): number =>
    Number(text.replace(/\u2212/g, '-').replace(/[^0-9.+-]/g, ''))
  let read = 0
  const off: string[] = []
  for (const [key, lastText, pctText] of rows) {
    const prev = closes.get(key as string)
    const last = num(lastText as string)
    const pct = num(pctText as string)
    if (prev === undefined || !Number.isFinite(last) || !Number.isFinite(pct)) continue
    read++
    if (Math.abs(pct - (last / prev - 1) * 100) > 0.011) off.push(key as string)
  }
  return read === 0 ? null : off
}
