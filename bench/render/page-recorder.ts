/// <reference lib="dom" />
import type { CDPSession, Page } from 'playwright-core'
import { FRAME_FIELDS } from '../../src/shared/quote-frame'
import { MainThreadTrace } from './trace'

/**
 * What the benchmark injects into a page before its scripts run, to observe it from outside as a
 * user's eyes would: a MutationObserver that notes when a `last` price's text appears and reads
 * its send time from the price itself (bench/render/feed-server.mjs encodes the last four
 * millisecond digits as the four decimals; the cell's first such number is the price, since a
 * cell may say more after it, as Tickdesk's "mid" mark names the bid and ask), and a
 * PerformanceObserver for long tasks (> 50 ms).
 * Nothing here depends on Tickdesk's code: any page whose price cells carry data-field="last"
 * can be measured, the reference page included. `frames` counts the observer's callbacks that saw
 * a price written: the frames that wrote prices.
 *
 * With ARRIVALS_SCRIPT before it (BENCH_ARRIVALS=1), each message a WebSocket of the page
 * receives is read for the `last` prices it carries and their send time noted at arrival: feed ->
 * host -> page apart from the page's own wait to its write. It knows the two formats that carry
 * them, the service's ticks (the relay forwards them) and the bridge's quote frames
 * (src/shared/quote-frame.ts), and costs the page a second parse of each message: the figures of
 * a run with it are for the split, not the targets.
 */
// The script reads a patch's `last` as its first value: the frame's first field.
if (FRAME_FIELDS[0] !== 'last') throw new Error('quote frames no longer lead with last')
export const ARRIVALS_SCRIPT = `
(() => {
  const arr = [];
  Object.defineProperty(globalThis, '__benchArrivals', { value: arr });
  const LAST_BIT = ${1 << FRAME_FIELDS.indexOf('last')};
  const FIELDS = ${FRAME_FIELDS.length};
  const note = (now, v) => {
    if (typeof v !== 'number') return;
    const sent = Math.round((v - Math.floor(v)) * 10000);
    arr.push((((now - sent) % 10000) + 10000) % 10000);
  };
  const Base = WebSocket;
  globalThis.WebSocket = class extends Base {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (e) => {
        const b = globalThis.__benchRecorder;
        if (!b || !b.recording || typeof e.data !== 'string') return;
        const now = Date.now();
        let msg;
        try { msg = JSON.parse(e.data); } catch { return; }
        if (Array.isArray(msg && msg.data)) for (const t of msg.data) note(now, t.last);
        const f = msg && msg.event && msg.event.type === 'quotes' ? msg.event.frame : null;
        if (f === null) return;
        let at = 0;
        for (const mask of f.masks) {
          if (mask & LAST_BIT) note(now, f.values[at]);
          for (let i = 0; i < FIELDS; i++) if (mask & (1 << i)) at++;
        }
      });
    }
  };
})();
`

export const RECORDER_SCRIPT = `
(() => {
  const b = { lat: [], longTasks: [], frames: 0, recording: false };
  Object.defineProperty(globalThis, '__benchRecorder', { value: b });
  try {
    new PerformanceObserver((list) => {
      if (b.recording) for (const e of list.getEntries()) b.longTasks.push(e.duration);
    }).observe({ type: 'longtask' });
  } catch {}
  const seen = new Set();
  new MutationObserver((records) => {
    if (!b.recording) return;
    const now = Date.now();
    seen.clear();
    for (const r of records) {
      const node = r.target.nodeType === 3 ? r.target.parentElement : r.target;
      const cell = node && node.closest ? node.closest('[data-field="last"]') : null;
      if (cell === null || seen.has(cell)) continue;
      seen.add(cell);
      const m = /\\d\\.(\\d{4})/.exec(cell.textContent || '');
      if (m) b.lat.push((((now - Number(m[1])) % 10000) + 10000) % 10000);
    }
    if (seen.size > 0) b.frames++;
  }).observe(document, { subtree: true, childList: true, characterData: true });
})();
`

interface Recorder {
  lat: number[]
  longTasks: number[]
  frames: number
  recording: boolean
}

/** Main-thread time by kind (Chromium's Performance.getMetrics), seconds since the page opened. */
export interface MainThread {
  task: number
  script: number
  style: number
  layout: number
}

export interface PageSample {
  latencies: number[]
  longTasks: number[]
  /** Frames that wrote a price (the observer's callbacks that saw one). */
  frames: number
  /** With ARRIVALS_SCRIPT: each price's send-to-arrival in the page, ms. */
  arrivals?: number[]
  /** Main-thread time over the phase, ms per second, by kind; `other` is mostly paint. */
  mainThread: { task: number; script: number; style: number; layout: number; other: number }
  /** With tracing on: main-thread ms per second by kind and the busiest event names. */
  trace?: { kinds: Record<string, number>; top: string; longTasks: string }
}

export async function mainThread(cdp: CDPSession): Promise<MainThread> {
  const { metrics } = await cdp.send('Performance.getMetrics')
  const get = (name: string): number => metrics.find((m) => m.name === name)?.value ?? 0
  return {
    task: get('TaskDuration'),
    script: get('ScriptDuration'),
    style: get('RecalcStyleDuration'),
    layout: get('LayoutDuration'),
  }
}

export class PageProbe {
  private before: MainThread | null = null
  private startedAt = 0
  private readonly trace: MainThreadTrace | null

  private constructor(
    private readonly page: Page,
    private readonly cdp: CDPSession,
    trace: boolean,
  ) {
    this.trace = trace ? new MainThreadTrace(cdp) : null
  }

  static async attach(page: Page, trace = false): Promise<PageProbe> {
    const cdp = await page.context().newCDPSession(page)
    await cdp.send('Performance.enable')
    return new PageProbe(page, cdp, trace)
  }

  async start(): Promise<void> {
    await this.page.evaluate(() => {
      const b = (globalThis as unknown as { __benchRecorder: Recorder }).__benchRecorder
      b.lat = []
      b.longTasks = []
      b.frames = 0
      ;(globalThis as unknown as { __benchArrivals?: number[] }).__benchArrivals?.splice(0)
      b.recording = true
    })
    await this.trace?.start()
    this.before = await mainThread(this.cdp)
    this.startedAt = performance.now()
  }

  async stop(): Promise<PageSample> {
    const after = await mainThread(this.cdp)
    const seconds = (performance.now() - this.startedAt) / 1000
    const rec = await this.page.evaluate(() => {
      const b = (globalThis as unknown as { __benchRecorder: Recorder }).__benchRecorder
      b.recording = false
      const arrivals = (globalThis as unknown as { __benchArrivals?: number[] }).__benchArrivals
      return { lat: b.lat, longTasks: b.longTasks, frames: b.frames, arrivals }
    })
    const trace = await this.trace?.stop(seconds)
    const b = this.before ?? after
    const perS = (v: number): number => (v * 1000) / seconds
    const task = perS(after.task - b.task)
    const script = perS(after.script - b.script)
    const style = perS(after.style - b.style)
    const layout = perS(after.layout - b.layout)
    return {
      latencies: rec.lat,
      longTasks: rec.longTasks,
      frames: rec.frames,
      ...(rec.arrivals ? { arrivals: rec.arrivals } : {}),
      mainThread: { task, script, style, layout, other: task - script - style - layout },
      ...(trace ? { trace } : {}),
    }
  }
}
