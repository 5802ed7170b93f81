import type { CDPSession } from 'playwright-core'

/**
 * A Chromium trace of the page's main thread, summed by kind: where a frame's time goes (script,
 * style, layout, paint, compositing), finer than Performance.getMetrics. Used by
 * `npm run bench -- --only render --trace` (tracing itself costs time, so figures taken with it
 * are for the breakdown, not the targets).
 */
const CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink', 'cc']

/** Top-level main-thread events and the kind each is counted as. */
const KIND: Record<string, string> = {
  FunctionCall: 'script',
  EvaluateScript: 'script',
  TimerFire: 'script',
  FireAnimationFrame: 'script',
  RunMicrotasks: 'script',
  EventDispatch: 'script',
  'v8.callFunction': 'script',
  UpdateLayoutTree: 'style',
  Layout: 'layout',
  PrePaint: 'paint',
  Paint: 'paint',
  'LocalFrameView::RunPaintLifecyclePhase': 'paint',
  Layerize: 'composite',
  'LocalFrameView::RunAccessibilitySteps': 'accessibility',
  UpdateLayer: 'composite',
  Commit: 'composite',
  HitTest: 'other',
  ParseHTML: 'other',
}

/** A complete or metadata event of a Chromium trace, as CDP's Tracing domain reports it. */
export interface TraceEvent {
  name: string
  ph: string
  dur?: number
  /** Thread-clock duration: the time the thread ran, without the time it waited for a core. */
  tdur?: number
  ts: number
  tid: number
  pid: number
  args?: { name?: string }
}

export class MainThreadTrace {
  private events: TraceEvent[] = []

  constructor(private readonly cdp: CDPSession) {}

  async start(): Promise<void> {
    this.events = []
    this.cdp.on('Tracing.dataCollected', (e) =>
      this.events.push(...(e.value as unknown as TraceEvent[])),
    )
    await this.cdp.send('Tracing.start', {
      categories: CATEGORIES.join(','),
      transferMode: 'ReportEvents',
    })
  }

  /**
   * ms per second of the main thread, by kind and by event name (the top 12), and what the tasks
   * over 50 ms spent their time on (the longest events inside each, summed over all of them).
   */
  async stop(
    seconds: number,
  ): Promise<{ kinds: Record<string, number>; top: string; longTasks: string }> {
    const done = new Promise<void>((resolve) =>
      this.cdp.once('Tracing.tracingComplete', () => resolve()),
    )
    await this.cdp.send('Tracing.end')
    await done
    const main = this.events.find((e) => e.ph === 'M' && e.args?.name === 'CrRendererMain')
    const byName = new Map<string, number>()
    const kinds: Record<string, number> = {}
    // Nested events of the same kind would count twice: only the outermost counted event is kept.
    const onMain = this.events
      .filter((e) => main && e.tid === main.tid && e.pid === main.pid && e.ph === 'X' && e.dur)
      .sort((a, b) => a.ts - b.ts)
    // The same sums on the thread clock: on a loaded machine a wall duration also counts the
    // time the main thread waited for a core, and the thread clock does not.
    const threadKinds: Record<string, number> = {}
    let coveredUntil = 0
    for (const e of onMain) {
      const kind = KIND[e.name]
      if (kind === undefined || e.ts < coveredUntil) continue
      coveredUntil = e.ts + (e.dur ?? 0)
      const ms = (e.dur ?? 0) / 1000 / seconds
      kinds[kind] = (kinds[kind] ?? 0) + ms
      threadKinds[kind] = (threadKinds[kind] ?? 0) + (e.tdur ?? 0) / 1000 / seconds
      byName.set(e.name, (byName.get(e.name) ?? 0) + ms)
    }
    const threadTasks = outerTasks(onMain).reduce((sum, t) => sum + (t.tdur ?? 0), 0) / 1000
    const thread = Object.entries(threadKinds)
      .map(([k, v]) => `${k} ${v.toFixed(1)}`)
      .join(', ')
    const top = [...byName]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 12)
      .map(([n, ms]) => `${n} ${ms.toFixed(1)}`)
      .join(', ')
    const count = (name: string): string =>
      `${name} ${(onMain.filter((e) => e.name === name).length / seconds).toFixed(1)}/s`
    const rates = ['Commit', 'FireAnimationFrame', 'TimerFire', 'FunctionCall', 'EventDispatch']
      .map(count)
      .join(', ')
    return {
      kinds,
      top: `${top}; ${rates}; ${frameTasks(onMain)}; thread clock ms/s: ${thread}, tasks ${(threadTasks / seconds).toFixed(1)}`,
      longTasks: longTaskContents(onMain),
    }
  }
}

/**
 * The main thread's tasks: RunTask events not inside another one (Chromium nests a RunTask in a
 * RunTask, and counting those too listed each long task two or three times).
 */
function outerTasks(onMain: TraceEvent[]): TraceEvent[] {
  const out: TraceEvent[] = []
  let until = 0
  for (const e of onMain) {
    if (e.name !== 'RunTask' || e.ts < until) continue
    out.push(e)
    until = e.ts + (e.dur ?? 0)
  }
  return out
}

/** Inside every main-thread task over 50 ms: total ms per nested event name, the top 10. */
function longTaskContents(onMain: TraceEvent[]): string {
  const long = outerTasks(onMain).filter((e) => (e.dur ?? 0) > 50_000)
  const inside = new Map<string, number>()
  for (const task of long) {
    const end = task.ts + (task.dur ?? 0)
    for (const e of onMain) {
      if (e === task || e.ts < task.ts || e.ts >= end) continue
      inside.set(e.name, (inside.get(e.name) ?? 0) + (e.dur ?? 0) / 1000)
    }
  }
  const top = [...inside]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 10)
    .map(([n, ms]) => `${n} ${ms.toFixed(0)}`)
    .join(', ')
  return `${long.length} tasks over 50 ms (${long.map((t) => Math.round((t.dur ?? 0) / 1000)).join(', ')} ms)${top ? `: ${top}` : ''}`
}

/** The tasks that ran an animation frame: how many, and their mean and longest duration. */
function frameTasks(onMain: TraceEvent[]): string {
  const frames = onMain.filter((e) => e.name === 'FireAnimationFrame')
  const tasks = outerTasks(onMain).filter((t) =>
    frames.some((f) => f.ts >= t.ts && f.ts < t.ts + (t.dur ?? 0)),
  )
  const ms = tasks.map((t) => (t.dur ?? 0) / 1000)
  const mean = ms.reduce((a, b) => a + b, 0) / Math.max(1, ms.length)
  return `frame tasks ${ms.length}, mean ${mean.toFixed(1)} ms, longest ${Math.max(0, ...ms).toFixed(1)} ms`
}
