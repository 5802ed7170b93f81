import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import type { Browser, CDPSession } from 'playwright-core'
import { findChromium, launchChromium } from '../test/e2e/chromium'
import { rendererDir } from '../src/web'

/** Chromium helpers for the renderer benchmarks: Debian Chromium via playwright-core, the built renderer. */
/** JS heap in use after a forced GC, in bytes (CDP: HeapProfiler.collectGarbage, Runtime.getHeapUsage). */
export async function heapAfterGc(cdp: CDPSession): Promise<number> {
  await cdp.send('HeapProfiler.collectGarbage')
  await cdp.send('HeapProfiler.collectGarbage')
  const usage = await cdp.send('Runtime.getHeapUsage')
  return usage.usedSize
}

export async function browserOrSkip(): Promise<Browser | string> {
  const path = findChromium()
  if (path === null) return 'no Chromium (apt-get install chromium or set TICKDESK_CHROMIUM)'
  return launchChromium(path)
}

/** The built renderer; built once with electron-vite if missing (~20 s). */
export function builtRendererOrSkip(): string | null {
  const dir = rendererDir()
  if (existsSync(join(dir, 'index.html'))) return dir
  try {
    execFileSync('npx', ['electron-vite', 'build'], { stdio: 'ignore' })
  } catch {
    return null
  }
  return existsSync(join(dir, 'index.html')) ? dir : null
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms))
}

/** Serves `html` at / on 127.0.0.1 until closed: a lean reference page, over http as the app is. */
export async function serveStatic(html: string | Buffer): Promise<{ url: string; server: Server }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    res.end(html)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server }
}
