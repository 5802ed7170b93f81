import { spawn, type ChildProcess } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect } from 'vitest'
import { fileURLToPath } from 'node:url'
import { openDataStores } from '../../src/core/persistence/stores'
import type { AlertRule } from '../../src/shared/alerts/alert'
import { serviceRef, type ServiceRef } from '../../src/shared/alerts/alert-service'
import type { SimServer } from '../../src/sim'
import { DEMO_KEYS } from '../../src/sim/plans-and-keys'

/**
 * Once-alerts written straight into a data folder's alerts.json, as `tickdesk alerts add` would,
 * for the exactly-once tests of every host: each rule id is `<tag>-<SYMBOL>`.
 */
export const SYMBOLS = ['BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'BNBUSDT', 'AVAXUSDT'] as const
/** Near each symbol's simulated price: the tests set levels at multiples of it. */
export const LEVEL = { BTCUSDT: 84_000, ETHUSDT: 3_200, SOLUSDT: 165, BNBUSDT: 590, AVAXUSDT: 36 }

/**
 * The keychain profile every process of these tests runs under (TICKDESK_PROFILE): the rules are
 * made for the simulator's service under it, and no test touches the machine's own profiles.
 */
export const TEST_PROFILE = 'tickdesk-faults'

/** The simulator as the service the tests' rules are made for. */
export function simService(sim: SimServer): ServiceRef {
  return serviceRef(`http://127.0.0.1:${sim.port}`, TEST_PROFILE)
}

export async function addOnceAlerts(
  dir: string,
  tag: string,
  levels: Record<string, number>,
  sim: SimServer,
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
      service: simService(sim),
    }
  })
  await stores.alerts.save({ rules: [...file.rules, ...rules], states: file.states })
  return ids
}

/**
 * Once-alerts on a trend line drawn at each level (`<tag>-<SYMBOL>`), as the chart's drawing menu
 * makes them: the drawing in drawings.json and the rule in alerts.json. The line rises 0.2 %
 * through the level over 60 days around `now`, so a price pinned 1 % past the level crosses it
 * upward whatever clock the service's tick times read (faketime moves only this process's).
 */
export async function addTrendAlerts(
  dir: string,
  tag: string,
  levels: Record<string, number>,
  now: number,
  sim: SimServer,
): Promise<Map<string, string>> {
  const stores = openDataStores(dir)
  const file = (await stores.alerts.load()).value
  const ids = new Map<string, string>()
  const charts: Record<string, unknown[]> = {}
  const rules: AlertRule[] = Object.entries(levels).map(([symbol, price]) => {
    const id = `${tag}-${symbol}`
    const line = {
      shape: 'trend' as const,
      a: { t: now - 30 * 86_400_000, price: price * 0.999 },
      b: { t: now + 30 * 86_400_000, price: price * 1.001 },
    }
    ids.set(symbol, id)
    charts[`crypto:${symbol}|intraday`] = [{ kind: 'line', id: 'tl1', line }]
    return {
      id,
      key: `crypto:${symbol}`,
      condition: {
        kind: 'lineCross',
        drawing: { id: 'tl1', family: 'intraday' },
        line,
        direction: 'any',
        interval: '1m',
      },
      repeat: 'once',
      hysteresisPct: 0.2,
      cooldownSec: 0,
      expiresAt: null,
      note: '',
      createdAt: now,
      enabled: true,
      service: simService(sim),
    }
  })
  await stores.alerts.save({ rules: [...file.rules, ...rules], states: file.states })
  writeFileSync(join(dir, 'drawings.json'), JSON.stringify({ version: 1, data: { charts } }))
  return ids
}

/**
 * Whether a rule's saved state holds a price: a line rule's side is on disk (the loop saves it
 * once the rule first knows it), so a restart can tell a cross from a first sight.
 */
export async function sideSaved(dir: string, ruleId: string): Promise<boolean> {
  const states = await openDataStores(dir).alertStates.load()
  return states.value.some((s) => s.ruleId === ruleId && s.lastPrice !== null)
}

/** The real entry point, as a user runs it (the built CLI; `npm test` builds first). */
const BIN = fileURLToPath(new URL('../../bin/tickdesk.js', import.meta.url))

export interface AlertLine {
  type: 'alert'
  id: string
  ruleId: string
  symbol: string
  message: string
  whileAway: boolean
  awaySince: number | null
  replayed: boolean
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

export function startCli(
  sim: SimServer,
  dir: string,
  args: readonly string[],
  env: Record<string, string> = {},
): CliRun {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      TICKDESK_BASE_URL: `http://127.0.0.1:${sim.port}`,
      TICKDESK_API_KEY: DEMO_KEYS.pro,
      TICKDESK_PLAN: 'pro',
      TICKDESK_DATA_DIR: dir,
      TICKDESK_PROFILE: TEST_PROFILE,
      ...env,
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

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

/**
 * How soon after waking a level crossed during the sleep must fire: the sleep watch promises
 * live prices within 5 s of waking (core/engine/sleep-detector.ts), and a loaded machine stretches
 * that as it stretches everything, so the bound is the larger of 5 s and 20 times what a fire
 * took after a plain drop in the same run (`afterDrop`). Quiet, a wake fires in 40-80 ms and a
 * drop in 20-60 ms; a CI run beside the soak and security checks once took 5.1 s when each
 * wake also waited out a 1 s REST retry.
 */
export function wakeBoundMs(afterDrop: number): number {
  return Math.max(5_000, 20 * afterDrop)
}

/**
 * The five crossings every CLI host is put through, one once-alert each: while running, just
 * after the service dropped the socket, during an 8 s stop (a laptop sleep) with the socket
 * dropped, while nothing ran (after kill -9), and after the restart. Returns with the second
 * run still running, once the fifth fired.
 */
export async function crossFiveWays(
  sim: SimServer,
  rules: { ids: Map<string, string>; levels: Record<string, number> },
  host: { start(): CliRun; ready(run: CliRun): boolean },
): Promise<{ first: CliRun; second: CliRun; afterWake: number; afterDrop: number }> {
  const { cross } = levelCrosser(sim)
  const fired = (r: CliRun, symbol: string): boolean =>
    r.alerts.some((a) => a.ruleId === rules.ids.get(symbol))
  const crossAndWait = async (r: CliRun, symbol: string): Promise<void> => {
    cross(symbol, rules.levels[symbol]!)
    await r.waitFor(() => fired(r, symbol), `${symbol} fire`)
  }
  const first = host.start()
  await first.waitFor(() => host.ready(first), 'the first run to be ready')
  // 1. while running
  await crossAndWait(first, 'BTCUSDT')
  // 2. just after the service dropped the socket
  const dropped = Date.now()
  sim.faults.dropSockets()
  await crossAndWait(first, 'ETHUSDT')
  const afterDrop = Date.now() - dropped
  await sleep(1500)
  // 3. while the process was stopped (a sleep); the service dropped the socket meanwhile
  first.child.kill('SIGSTOP')
  sim.faults.dropSockets()
  cross('SOLUSDT', rules.levels.SOLUSDT!)
  await sleep(8_000)
  const woke = Date.now()
  first.child.kill('SIGCONT')
  await first.waitFor(() => fired(first, 'SOLUSDT'), 'SOLUSDT fire')
  const afterWake = Date.now() - woke
  // 4. while nothing ran
  first.child.kill('SIGKILL')
  await first.exited
  cross('BNBUSDT', rules.levels.BNBUSDT!)
  await sleep(300)
  const second = host.start()
  await second.waitFor(() => fired(second, 'BNBUSDT'), 'BNBUSDT fire')
  await second.waitFor(() => host.ready(second), 'the second run to be ready')
  // 5. after the restart
  await crossAndWait(second, 'AVAXUSDT')
  return { first, second, afterWake, afterDrop }
}

/**
 * Each of the five fired once across both runs (one fire id), the stopped and the crashed ones
 * marked away. A second line of a fire is the documented replay (a kill between printing a line
 * and recording it, which the test's own kill, sent as soon as a line shows, can land in): it must
 * carry the same id and say `replayed: true`.
 */
export function expectFiveOnce(all: readonly AlertLine[], ids: Map<string, string>): void {
  for (const symbol of SYMBOLS) {
    const lines = all.filter((a) => a.ruleId === ids.get(symbol))
    const what = `${symbol}: ${JSON.stringify(lines)}`
    expect(new Set(lines.map((l) => l.id)).size, what).toBe(1)
    expect(lines[0]?.replayed, what).toBe(false)
    expect(lines.slice(1).every((l) => l.replayed)).toBe(true)
  }
  const bySymbol = new Map(all.map((a) => [a.symbol, a]))
  expect(bySymbol.get('BNBUSDT')?.whileAway, 'crossed while nothing ran').toBe(true)
  expect(bySymbol.get('BNBUSDT')?.awaySince).not.toBeNull()
  expect(bySymbol.get('SOLUSDT')?.whileAway, 'crossed while the process was stopped').toBe(true)
  expect(bySymbol.get('BTCUSDT')?.whileAway).toBe(false)
  expect(bySymbol.get('AVAXUSDT')?.whileAway).toBe(false)
}
