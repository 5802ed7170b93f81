import { fork, spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium, type Browser } from 'playwright-core'
import { CHROMIUM_ARGS } from '../../test/e2e/chromium'

/** The processes a render run starts, each its own OS process so /proc can meter it. */
const here = (file: string): string => fileURLToPath(new URL(file, import.meta.url))
export const FEED_KEY = 'bench-render-key'

export interface FeedServer {
  baseUrl: string
  streamUrl: string
  mode(mode: 'idle' | 'spread' | 'off'): void
  mode(mode: 'hot', ticksPerSec: number): void
  close(): void
}

export async function startFeed(): Promise<FeedServer> {
  const child = fork(here('./feed-server.mjs'), [], {
    env: { ...process.env, FEED_KEY },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { listening: number }).listening))
    child.once('exit', (code) => reject(new Error(`feed server exited with ${code}`)))
  })
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    streamUrl: `ws://127.0.0.1:${port}/api/v1/market/stream`,
    mode: (mode: string, ticksPerSec = 0) => child.send({ mode, ticksPerSec }),
    close: () => child.kill(),
  }
}

/** `node --cpu-prof` for the host when BENCH_HOST_PROF names a folder (where its time goes). */
export function profileArgs(): string[] {
  const dir = process.env.BENCH_HOST_PROF
  return dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : []
}

export interface Spawned {
  child: ChildProcess
  /** The first match of `pattern` in the child's stdout. */
  url: string
  stop(): Promise<void>
}

/** Spawns `node args…` and waits for it to print an address matching `pattern`. */
export async function spawnHost(
  args: string[],
  env: NodeJS.ProcessEnv,
  pattern: RegExp,
): Promise<Spawned> {
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()))
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no address in 30 s:\n${out}`)), 30_000)
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString()
      const m = pattern.exec(out)
      if (m?.[1]) {
        clearTimeout(timer)
        resolve(m[1])
      }
    })
    child.once('exit', (code) => reject(new Error(`exited with ${code}:\n${out}`)))
  })
  return {
    child,
    url,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      }),
  }
}

/** A Chromium of our own, with the pid its process tree is metered from. */
export async function launchBrowser(
  executablePath: string,
): Promise<{ browser: Browser; pid: number; close(): Promise<void> }> {
  const server = await chromium.launchServer({
    executablePath,
    headless: true,
    args: CHROMIUM_ARGS,
  })
  const pid = server.process().pid
  if (pid === undefined) throw new Error('Chromium has no pid')
  const browser = await chromium.connect(server.wsEndpoint())
  return {
    browser,
    pid,
    close: async () => {
      await browser.close()
      await server.close()
    },
  }
}

/**
 * The built `tickdesk` to measure: this checkout's, or BENCH_APP_ROOT's (another worktree, built
 * there), or `root` when a run compares builds side by side: a bisect measures each build with the
 * same harness and reference.
 */
export function tickdeskBin(root = process.env.BENCH_APP_ROOT): string {
  return root ? join(root, 'bin', 'tickdesk.js') : here('../../bin/tickdesk.js')
}
