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

/**
 * Browser tests skip loudly on a laptop without Chromium but fail under CI=true, where a missing
 * browser means the run proves nothing.
 */
export function chromiumOrSkip(): string | null {
  const path = findChromium()
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
