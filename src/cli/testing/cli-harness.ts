import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough, Readable } from 'node:stream'
import { afterEach, beforeEach } from 'vitest'
import { startSimulator, type SimServer } from '../../sim'
import type { CliCommand, CliIO } from '../io'

/**
 * Runs one CLI command in-process the way bin/tickdesk.js does: PassThrough stdout/stderr, an
 * injected env and an AbortController standing in for SIGINT. Tests read stdout as NDJSON.
 */
export interface CliRun {
  exit: Promise<number>
  stdout(): string
  stderr(): string
  /** Every stdout line parsed as JSON; throws on the first line that is not JSON. */
  lines(): Record<string, unknown>[]
  /**
   * Resolves with the first JSON line at index `from` or later (already printed or still to come)
   * that the predicate accepts.
   */
  waitFor(
    predicate: (line: Record<string, unknown>) => boolean,
    timeoutMs?: number,
    from?: number,
  ): Promise<Record<string, unknown>>
  abort(): void
}

export interface RunOptions {
  env?: NodeJS.ProcessEnv
  /** Pretend stdout is a terminal (live table, colour unless NO_COLOR). */
  tty?: boolean
  clock?: CliIO['clock']
  /** What the command reads on stdin (then end of input); none: no stdin at all. */
  stdin?: string
}

export function runCli(command: CliCommand, args: string[], options: RunOptions = {}): CliRun {
  const out = new PassThrough()
  const err = new PassThrough()
  if (options.tty) Object.assign(out, { isTTY: true, columns: 120 })
  let stdout = ''
  let stderr = ''
  const waiters = new Set<() => void>()
  out.on('data', (c: Buffer) => {
    stdout += c.toString()
    for (const w of waiters) w()
  })
  err.on('data', (c: Buffer) => (stderr += c.toString()))
  const controller = new AbortController()
  const io: CliIO = {
    stdout: out,
    stderr: err,
    env: options.env ?? {},
    signal: controller.signal,
    clock: options.clock,
    ...(options.stdin !== undefined ? { stdin: Readable.from([options.stdin]) } : {}),
  }
  const exit = command(args, io)
  // Only newline-terminated lines: a half-written one is not a line yet.
  const completeLines = (): Record<string, unknown>[] =>
    stdout
      .split('\n')
      .slice(0, -1)
      .map((l) => JSON.parse(l) as Record<string, unknown>)
  const tail = (): string =>
    `stdout (last lines):\n${stdout.split('\n').slice(-12).join('\n')}\nstderr:\n${stderr}`
  let finished = false
  void exit.finally(() => {
    finished = true
    for (const w of waiters) w()
  })
  return {
    exit,
    stdout: () => stdout,
    stderr: () => stderr,
    lines: completeLines,
    abort: () => controller.abort(),
    waitFor: (predicate, timeoutMs = 10_000, from = 0) =>
      new Promise((resolve, reject) => {
        const check = (): void => {
          const hit = completeLines().slice(from).find(predicate)
          if (hit) finish(() => resolve(hit))
          else if (finished) finish(() => reject(new Error(`command exited first; ${tail()}`)))
        }
        const timer = setTimeout(
          () => finish(() => reject(new Error(`no matching line in ${timeoutMs} ms; ${tail()}`))),
          timeoutMs,
        )
        const finish = (then: () => void): void => {
          clearTimeout(timer)
          waiters.delete(check)
          then()
        }
        waiters.add(check)
        check()
      }),
  }
}

/** A fresh data dir per test; the returned function removes it. */
export async function tempDataDir(): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'tickdesk-cli-'))
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) }
}

/** The env a real user sets to point the CLI at a service (here: the simulator on loopback). */
export function serviceEnv(
  url: string,
  apiKey: string,
  dataDir: string,
  extra: NodeJS.ProcessEnv = {},
): NodeJS.ProcessEnv {
  return { TICKDESK_BASE_URL: url, TICKDESK_API_KEY: apiKey, TICKDESK_DATA_DIR: dataDir, ...extra }
}

/**
 * A CLI command's spec against a service: a simulator (this seed) and a fresh data folder for each
 * test, both removed after it; `env()` points the CLI at them with the Pro key, as a user would.
 */
export function cliOnSim(seed: number): {
  readonly sim: SimServer
  readonly data: { dir: string; remove: () => Promise<void> }
  env(): NodeJS.ProcessEnv
} {
  let sim: SimServer
  let data: Awaited<ReturnType<typeof tempDataDir>>
  beforeEach(async () => {
    sim = await startSimulator({ seed, tickIntervalMs: 50 })
    data = await tempDataDir()
  })
  afterEach(async () => {
    await sim.close()
    await data.remove()
  })
  return {
    get sim() {
      return sim
    },
    get data() {
      return data
    },
    env: () => serviceEnv(sim.url, sim.keys.pro, data.dir, { TICKDESK_PLAN: 'pro' }),
  }
}
