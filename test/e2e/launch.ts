import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

export const ROOT = resolve(import.meta.dirname, '..', '..')
export const SCREENSHOTS = join(ROOT, 'docs', 'screenshots')

export interface Launched {
  url: string
  child: ChildProcess
  output: () => string
  stop: () => Promise<number | null>
  /** Stops it and fails unless it exits cleanly (code 0), with its output. */
  close: () => Promise<void>
}

/** Runs `npm start` as a user would (the build already exists), and waits for the printed address. */
export async function launchStart(
  extraEnv: Record<string, string> = {},
  dataDir?: string,
): Promise<Launched> {
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'tickdesk-e2e-'))
  const child = spawn(process.execPath, [join(ROOT, 'scripts', 'start.mjs')], {
    cwd: ROOT,
    env: {
      ...process.env,
      BROWSER: 'none',
      TICKDESK_SKIP_BUILD: '1',
      TICKDESK_DATA_DIR: dir,
      TICKDESK_BASE_URL: '',
      TICKDESK_API_KEY: '',
      // Its own keychain account, so a test never reads or writes the user's saved key.
      TICKDESK_PROFILE: `e2e-launch-${process.pid}`,
      DISPLAY: '',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const { url, output } = await printedAddress(child, 'npm start')
  const stop = (): Promise<number | null> =>
    new Promise((res) => {
      if (child.exitCode !== null) return res(child.exitCode)
      child.once('exit', (code) => res(code))
      child.kill('SIGTERM')
    })
  return {
    url,
    child,
    output,
    stop,
    close: async () => {
      const code = await stop()
      if (code !== 0) throw new Error(`npm start exited with ${code}:\n${output()}`)
    },
  }
}

/**
 * Collects a starting host's output and resolves with the tokened address it prints ("Tickdesk
 * is running at ..."); rejects, with the output so far, if it exits first or prints none within
 * PRINT_WAIT_MS (then it is stopped).
 */
/**
 * How long a start may take to print its address: `npm start` builds, tries to fetch Electron's
 * runtime, then starts the browser host; a whole-suite run at load 20 on 2 cores took more than
 * 30 s (2026-11-29). Within the e2e files' 90 s limit, leaving the spec its own steps.
 */
const PRINT_WAIT_MS = 60_000

export async function printedAddress(
  child: ChildProcess,
  what: string,
): Promise<{ url: string; output: () => string }> {
  let out = ''
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()))
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()))
  const url = await new Promise<string>((res, rej) => {
    // A host that never printed is stopped too: left running, it would outlive the failed spec
    // and load the machine for every file after it (a loaded run left four such hosts behind).
    const timer = setTimeout(() => {
      child.kill('SIGTERM')
      rej(new Error(`${what} printed no address within ${PRINT_WAIT_MS / 1000} s:\n${out}`))
    }, PRINT_WAIT_MS)
    const check = (): void => {
      const m = /Tickdesk is running at (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(out)
      if (m?.[1]) {
        clearTimeout(timer)
        res(m[1])
      }
    }
    child.stdout?.on('data', check)
    child.once('exit', (code) => rej(new Error(`${what} exited with ${code}:\n${out}`)))
  })
  return { url, output: () => out }
}
