import { chmodSync, mkdtempSync, readFileSync, statSync, writeFileSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it, vi } from 'vitest'
import { openBrowser } from './open-browser'

const LAUNCH = 'http://127.0.0.1:5555/?token=one-time-code-abcdefghijklmnopqrstuv'

/** A BROWSER that writes down its command line as the OS shows it to every local user. */
function recordingBrowser(): { env: NodeJS.ProcessEnv; seen: () => string } {
  const dir = mkdtempSync(join(tmpdir(), 'tickdesk-browser-'))
  const out = join(dir, 'cmdline')
  const script = join(dir, 'browser.sh')
  writeFileSync(script, `#!/bin/sh\ntr '\\0' ' ' < /proc/$$/cmdline > "${out}"\n`)
  chmodSync(script, 0o755)
  return {
    env: { BROWSER: script },
    seen: () => (existsSync(out) ? readFileSync(out, 'utf8') : ''),
  }
}

describe.skipIf(process.platform !== 'linux')('opening the launch address in a browser', () => {
  it('never puts the address (its one-time code) on a command line: the browser gets a private page that forwards to it', async () => {
    const browser = recordingBrowser()
    const opened = openBrowser(LAUNCH, browser.env)
    expect(opened).not.toBeNull()
    await vi.waitFor(() => expect(browser.seen()).toContain('open-tickdesk.html'))
    expect(browser.seen()).not.toContain('one-time-code')
    const page = opened!.file
    expect(statSync(page).mode & 0o777).toBe(0o600)
    expect(statSync(join(page, '..')).mode & 0o777).toBe(0o700)
    expect(readFileSync(page, 'utf8')).toContain(`url=${LAUNCH}`)
    expect(fileURLToPath(`file://${page}`)).toBe(page)
  })

  it('deletes the forwarding page once the code could no longer be used', async () => {
    const opened = openBrowser(LAUNCH, recordingBrowser().env, 50)
    expect(existsSync(opened!.file)).toBe(true)
    await vi.waitFor(() => expect(existsSync(opened!.file)).toBe(false))
  })

  it('opens nothing with BROWSER=none or under CI', () => {
    expect(openBrowser(LAUNCH, { BROWSER: 'none' })).toBeNull()
    expect(openBrowser(LAUNCH, { CI: 'true' })).toBeNull()
  })
})
