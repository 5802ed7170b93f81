import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { escapeHtml } from '../shared/security/html-text'

/**
 * Opens a launch address in the user's browser, unless BROWSER=none; never fails the command.
 *
 * The address holds a one-time code, and a command line is readable by every local user
 * (/proc/PID/cmdline, `ps`), so the browser is not given the address: it is given a small page
 * in a folder only this user can read (0700, the file 0600) that forwards to it. The page is
 * deleted once the code has expired (`forgetAfterMs`), used or not.
 */
export function openBrowser(
  url: string,
  env: NodeJS.ProcessEnv,
  forgetAfterMs = 60_000,
): { file: string } | null {
  if (env.BROWSER === 'none' || env.CI) return null
  const file = launchPage(url)
  const target = pathToFileURL(file).href
  const [cmd, args] = env.BROWSER
    ? [env.BROWSER, [target]]
    : process.platform === 'darwin'
      ? ['open', [target]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '', target]]
        : ['xdg-open', [target]]
  const forget = setTimeout(
    () => rmSync(join(file, '..'), { recursive: true, force: true }),
    forgetAfterMs,
  )
  forget.unref()
  try {
    const child = spawn(cmd, args, { stdio: 'ignore', detached: true })
    child.on('error', () => undefined)
    child.unref()
  } catch {
    // No browser to open: the printed address is enough.
  }
  return { file }
}

/** The forwarding page, in a fresh private folder. */
function launchPage(url: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'tickdesk-open-'))
  const file = join(dir, 'open-tickdesk.html')
  const href = escapeHtml(url)
  writeFileSync(
    file,
    `<!doctype html><meta charset="utf-8"><meta name="referrer" content="no-referrer"><meta http-equiv="refresh" content="0;url=${href}"><title>Tickdesk</title><a href="${href}">Open Tickdesk</a>\n`,
    { mode: 0o600 },
  )
  return file
}
