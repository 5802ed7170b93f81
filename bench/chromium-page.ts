import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, CDPSession, Page } from 'playwright-core'
import { findChromium, launchChromium } from '../test/e2e/chromium'
import { rendererDir } from '../src/web'

/**
 * Chromium helpers for the renderer benchmarks: Debian Chromium via playwright-core (headless, no
 * sandbox, no GPU), the built renderer, and an in-page recorder. The recorder is installed before
 * any page script runs; it keeps tick-to-DOM latencies (Date.now() - patch.ts, reported by the
 * renderer's __tickdeskRendered hook after each applied batch), long tasks (PerformanceObserver
 * 'longtask', > 50 ms) and animation frames, only while `recording` is on.
 */
export interface PageSample {
  latencies: number[]
  longTasks: number[]
  frames: number
  seconds: number
}

export const RECORDER_SCRIPT = `
(() => {
  const b = { lat: [], longTasks: [], frames: 0, recording: false, since: 0 };
  globalThis.__bench = b;
  try {
    new PerformanceObserver((list) => {
      if (!b.recording) return;
      for (const e of list.getEntries()) b.longTasks.push(e.duration);
    }).observe({ type: 'longtask', buffered: false });
  } catch {}
  const frame = () => { if (b.recording) b.frames++; requestAnimationFrame(frame); };
  requestAnimationFrame(frame);
  globalThis.__tickdeskRendered = (patches) => {
    if (!b.recording) return;
    const now = Date.now();
    for (const p of patches) if (typeof p.ts === 'number') b.lat.push(now - p.ts);
  };
})();
`

/** The recorder the injected page script keeps on globalThis.__bench. */
interface BenchRecorder {
  recording: boolean
  since: number
  lat: number[]
  longTasks: number[]
  frames: number
}

export async function startRecording(page: Page): Promise<void> {
  await page.evaluate(() => {
    const b = (globalThis as unknown as { __bench: BenchRecorder }).__bench
    b.lat = []
    b.longTasks = []
    b.frames = 0
    b.since = performance.now()
    b.recording = true
  })
}

export async function stopRecording(page: Page): Promise<PageSample> {
  return page.evaluate(() => {
    const b = (globalThis as unknown as { __bench: BenchRecorder }).__bench
    b.recording = false
    return {
      latencies: b.lat,
      longTasks: b.longTasks,
      frames: b.frames,
      seconds: (performance.now() - b.since) / 1000,
    }
  })
}

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
