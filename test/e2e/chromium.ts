import { existsSync } from 'node:fs'
import { chromium, type Browser } from 'playwright-core'

const CANDIDATES = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
]

/** TICKDESK_CHROMIUM, then Debian's Chromium, then Chrome. */
export function findChromium(): string | null {
  const fromEnv = process.env.TICKDESK_CHROMIUM
  if (fromEnv && existsSync(fromEnv)) return fromEnv
  return CANDIDATES.find((p) => existsSync(p)) ?? null
}

/** Debian's build of Chromium's headless shell (package chromium-headless-shell). */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell'

/**
 * The browser the flows run in: TICKDESK_CHROMIUM when set, else Chromium's headless shell when
 * installed, else the full browser (findChromium). The shell is the same Chromium build (Blink,
 * V8, the network stack) without the browser's own window and UI, which in the full browser's new
 * headless mode cost a core through a whole e2e run: a context and a page of the desk took 1.9 CPU
 * seconds in the shell against 5.5 in the full browser (three rounds each, 2026-11-29), and every
 * e2e file passed in both except Web Notifications, which need the full browser's permission
 * service (those specs ask for it: DeskOptions.browser 'full'). The benches keep the full browser,
 * which is what a trader runs.
 */
export function findFlowChromium(): string | null {
  const fromEnv = process.env.TICKDESK_CHROMIUM
  if (fromEnv && existsSync(fromEnv)) return fromEnv
  return existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : findChromium()
}

/**
 * Browser tests skip loudly on a laptop without Chromium but fail under CI=true, where a missing
 * browser means the run proves nothing.
 */
export function chromiumOrSkip(): string | null {
  const path = findFlowChromium()
  if (path) return path
  const message =
    'No Chromium found (set TICKDESK_CHROMIUM or apt-get install chromium): browser tests SKIPPED'
  if (process.env.CI) throw new Error(message)
  console.warn(`\n*** ${message} ***\n`)
  return null
}

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

export async function launchChromium(executablePath: string): Promise<Browser> {
  return chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS })
}
