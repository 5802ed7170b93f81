/// <reference lib="dom" />
import type { Page } from 'playwright-core'
import type { Phase } from './render/runs'
import { percentile, round } from './stats'

/**
 * Frames that painted a figure, counted from outside: a MutationObserver the benchmark injects
 * counts one frame per callback in which text under `selector` changed (a view that writes all its
 * figures in one pass makes one callback a frame). Shared by the wall's and the heatmap's benches.
 */
function counterScript(selector: string): string {
  return `(() => {
  const c = { frames: 0, writes: 0 };
  Object.defineProperty(globalThis, '__paintedFrames', { value: c, configurable: true });
  new MutationObserver((records) => {
    let n = 0;
    for (const r of records) {
      const node = r.target.nodeType === 3 ? r.target.parentElement : r.target;
      if (node && node.closest && node.closest(${JSON.stringify(selector)})) n++;
    }
    if (n > 0) { c.frames++; c.writes += n; }
  }).observe(document, { subtree: true, childList: true, characterData: true });
})()`
}

export interface Counted {
  phase: Phase
  framesPerSec: number
  writesPerSec: number
  heapMB: number
}

/** Runs one measured phase with the counter on, and reads it (and the page's JS heap) after. */
export async function counted(
  page: Page,
  selector: string,
  run: () => Promise<Phase>,
): Promise<Counted> {
  await page.evaluate(counterScript(selector))
  const phase = await run()
  const { frames, writes, heap } = await page.evaluate(() => {
    const g = globalThis as unknown as {
      __paintedFrames: { frames: number; writes: number }
      performance: { memory?: { usedJSHeapSize: number } }
    }
    return {
      frames: g.__paintedFrames.frames,
      writes: g.__paintedFrames.writes,
      heap: g.performance.memory?.usedJSHeapSize ?? 0,
    }
  })
  return {
    phase,
    framesPerSec: round(frames / phase.seconds, 1),
    writesPerSec: round(writes / phase.seconds, 0),
    heapMB: round(heap / 2 ** 20),
  }
}

/** A phase's figures as the benches report them. */
export function figures(c: Counted): Record<string, number> {
  const p = c.phase
  return {
    p50: percentile(p.sample.latencies, 50),
    p95: percentile(p.sample.latencies, 95),
    longTasks: p.sample.longTasks.length,
    cpu: round(p.hostCpuPct + p.browserCpuPct),
    hostCpu: round(p.hostCpuPct),
    browserCpu: round(p.browserCpuPct),
    hostPss: round(p.hostPssMB),
    framesPerSec: c.framesPerSec,
    writesPerSec: c.writesPerSec,
    heapMB: c.heapMB,
    mainThreadMsPerSec: round(p.sample.mainThread.task, 0),
  }
}
