import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { openDataStores } from '../../src/core/persistence/stores'
import type { AlertRule } from '../../src/shared/alert'
import type { SimServer } from '../../src/sim'
import { DEMO_KEYS } from '../../src/sim/plans-and-keys'

/**
 * Once-alerts written straight into a data folder's alerts.json, as `tickdesk alerts add` would,
 * for the exactly-once tests of every host: each rule id is `<tag>-<SYMBOL>`.
 */
export const SYMBOLS = ['BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'BNBUSDT', 'AVAXUSDT'] as const
/** Near each symbol's simulated price: the tests set levels at multiples of it. */
export const LEVEL = { BTCUSDT: 84_000, ETHUSDT: 3_200, SOLUSDT: 165, BNBUSDT: 590, AVAXUSDT: 36 }

export async function addOnceAlerts(
  dir: string,
  tag: string,
  levels: Record<string, number>,
): Promise<Map<string, string>> {
  const stores = openDataStores(dir)
  const file = (await stores.alerts.load()).value
  const ids = new Map<string, string>()
  const rules: AlertRule[] = Object.entries(levels).map(([symbol, price]) => {
    const id = `${tag}-${symbol}`
    ids.set(symbol, id)
    return {
      id,
      key: `crypto:${symbol}`,
      condition: { kind: 'above', price },
      repeat: 'once',
      hysteresisPct: 0.2,
      cooldownSec: 0,
      expiresAt: null,
      note: '',
      createdAt: Date.now(),
      enabled: true,
    }
  })
  await stores.alerts.save({ rules: [...file.rules, ...rules], states: file.states })
  return ids
}

/** The real entry point, as a user runs it (the built CLI; `npm test` builds first). */
const BIN = fileURLToPath(new URL('../../bin/tickdesk.js', import.meta.url))

export interface AlertLine {
  type: 'alert'
  id: string
  ruleId: string
  symbol: string
  whileAway: boolean
  awaySince: number | null
}

/** A CLI process (`watch --json`, `alerts run --json`) on a data folder, read from its output. */
export interface CliRun {
  child: ChildProcess
  alerts: AlertLine[]
  /** Symbols of quote lines not from the cache (only `watch` prints quotes). */
  quotes: Set<string>
  stderr(): string
  waitFor(pred: () => boolean, what: string, ms?: number): Promise<void>
  exited: Promise<void>
}

export function startCli(sim: SimServer, dir: string, args: readonly string[]): CliRun {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      TICKDESK_BASE_URL: `http://127.0.0.1:${sim.port}`,
      TICKDESK_API_KEY: DEMO_KEYS.pro,
      TICKDESK_PLAN: 'pro',
      TICKDESK_DATA_DIR: dir,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let buffered = ''
  let stderr = ''
  const run: CliRun = {
    child,
    alerts: [],
    quotes: new Set(),
    stderr: () => stderr,
    waitFor: (pred, what, ms = 30_000) =>
      new Promise((resolve, reject) => {
        const started = Date.now()
        const check = (): void => {
          if (pred()) return resolve()
          if (Date.now() - started > ms)
            return reject(
              new Error(
                `timed out waiting for ${what}; alerts so far: ${JSON.stringify(run.alerts.map((a) => a.symbol))}; stderr: ${stderr}`,
              ),
            )
          setTimeout(check, 20)
        }
        check()
      }),
    exited: new Promise((resolve) => child.on('exit', () => resolve())),
  }
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()))
  child.stdout!.on('data', (d: Buffer) => {
    buffered += d.toString()
    const lines = buffered.split('\n')
    buffered = lines.pop() ?? ''
    for (const line of lines) {
      const parsed = JSON.parse(line) as { type: string; symbol?: string; source?: string }
      if (parsed.type === 'alert') run.alerts.push(parsed as AlertLine)
      if (parsed.type === 'quote' && parsed.source !== 'cache') run.quotes.add(parsed.symbol ?? '')
    }
  })
  return run
}

/** Holds each symbol's simulated price just past a level, or lets it walk again. */
export function levelCrosser(sim: SimServer): {
  cross(symbol: string, level: number): void
  release(): void
} {
  return {
    cross: (symbol, level) => sim.pinPrice('crypto', symbol, level * 1.01),
    release: () => {
      for (const s of SYMBOLS) sim.pinPrice('crypto', s, null)
    },
  }
}
