import { findChromium } from '../test/e2e/chromium'
import { MIN_SHOWN } from './guard/figures'
import { builtRendererOrSkip } from './chromium-page'
import {
  HOT_SYMBOLS,
  HOT_TICKS_PER_SEC,
  IDLE_SYMBOLS,
  REFERENCE_ROWS,
  runReference,
  runTickdesk,
  type Phase,
  type RunOptions,
  type SideResult,
} from './render/runs'
import {
  atLeast,
  atMost,
  percentile,
  report,
  round,
  skipped,
  type BenchContext,
  type BenchResult,
  type BenchRow,
} from './stats'

/**
 * render: the whole pipeline, observed from outside. A feed server on loopback speaks the
 * service's REST and stream (bench/render/feed-server.mjs) -> the built `tickdesk web` host as its
 * own process (real engine, app service, bridge) -> the built renderer in a Chromium of its own.
 * In the same run, the lean reference gets the same feed: a relay process forwarding the service's
 * frames and a page writing each changed cell once per animation frame (bench/render/reference-*,
 * no Tickdesk code). Tick-to-DOM comes from the prices themselves (they encode their send time)
 * and a MutationObserver the benchmark injects; CPU and PSS from /proc; long tasks and main-thread
 * time by kind from the page. Phases: idle (50 symbols, 1 tick/s each in one frame, 30 s), idle
 * with spread ticks (each symbol's tick its own frame at its own moment, 20 s) and hot (200
 * symbols, 10k ticks/s, 20 s). The lean page paints what the grid shows in the same window (the
 * rows in view, eight figures a row), so a ratio compares the same work on screen.
 */
interface Figures {
  p50: number
  p95: number
  p99: number
  longTasks: number
  cpu: number
  hostCpu: number
  browserCpu: number
  pss: number
  writesPerSec: number
}

function figures(p: Phase): Figures {
  const lat = p.sample.latencies
  return {
    p50: percentile(lat, 50),
    p95: percentile(lat, 95),
    p99: percentile(lat, 99),
    longTasks: p.sample.longTasks.length,
    cpu: round(p.hostCpuPct + p.browserCpuPct),
    hostCpu: round(p.hostCpuPct),
    browserCpu: round(p.browserCpuPct),
    pss: round(p.hostPssMB),
    writesPerSec: round(lat.length / p.seconds, 0),
  }
}

function mainThread(p: Phase): string {
  const m = p.sample.mainThread
  const pct = (v: number): string => `${Math.round((v / Math.max(1e-9, m.task)) * 100)}%`
  return `${round(m.task, 0)} ms/s: script ${pct(m.script)}, style ${pct(m.style)}, layout ${pct(m.layout)}, paint and other ${pct(m.other)}`
}

/**
 * Whether the desk showed the prices the lean page showed in the phase (MIN_SHOWN of its writes,
 * bench/guard/figures.ts): a desk polling instead of streaming shows fewer for less work, and
 * its CPU and latency ratios are then no comparison (the guard leaves them out).
 */
function shownRow(phase: string, ours: Figures, ref: Figures): BenchRow {
  return atLeast(
    `${phase}: prices written a second, vs the lean page`,
    ref.writesPerSec > 0 ? round(ours.writesPerSec / ref.writesPerSec, 2) : 0,
    'x reference',
    MIN_SHOWN,
    `${ours.writesPerSec} vs ${ref.writesPerSec}; below this the phase's ratios compare no like work`,
  )
}

function ratioRow(metric: string, ours: number, ref: number, max: number, unit: string): BenchRow {
  const ratio = ref > 0 ? round(ours / ref, 2) : Number.POSITIVE_INFINITY
  return atMost(metric, ratio, 'x reference', max, `${ours} vs ${ref} ${unit}`)
}

/** The two idle targets, the same for every feed shape: CPU ratio and latency over the reference. */
function idleTargets(phase: string, shape: string, ours: Figures, ref: Figures): BenchRow[] {
  return [
    shownRow(phase, ours, ref),
    ratioRow(`${phase}: CPU, host + Chromium (${shape})`, ours.cpu, ref.cpu, 1.5, '% of a core'),
    atMost(
      `${phase}: tick-to-DOM p50 over the reference`,
      round(ours.p50 - ref.p50),
      'ms',
      17,
      `${ours.p50} vs ${ref.p50} ms; p95 ${ours.p95} vs ${ref.p95} ms`,
    ),
  ]
}

/** The idle phases' rows and figures, when the run had them. */
function idleRows(ours: SideResult, ref: SideResult): { rows: BenchRow[]; json: object } {
  if (!ours.idle || !ref.idle || !ours.spread || !ref.spread) return { rows: [], json: {} }
  const [ri, oi, rs, os] = [ref.idle, ours.idle, ref.spread, ours.spread].map(figures) as [
    Figures,
    Figures,
    Figures,
    Figures,
  ]
  const idle = `${IDLE_SYMBOLS} symbols, 1 tick/s each`
  return {
    rows: [
      ...idleTargets('idle', idle, oi, ri),
      report(
        'idle: CPU split',
        oi.hostCpu,
        '% host',
        `Chromium ${oi.browserCpu}%; reference ${ri.hostCpu}% + ${ri.browserCpu}%`,
      ),
      report(
        'idle: main thread',
        oi.writesPerSec,
        'price writes/s',
        `${mainThread(ours.idle)}; reference ${mainThread(ref.idle)}`,
      ),
      ...idleTargets('idle, spread ticks', 'each tick its own frame', os, rs),
      atMost('host PSS, idle', oi.pss, 'MB', 60, `reference relay ${ri.pss} MB`),
    ],
    json: {
      idle: { ...oi },
      idleSpread: { ...os },
      referenceIdleSpread: { ...rs },
      referenceIdle: { ...ri },
    },
  }
}

/**
 * The phases a run measures: all of them (the default), the hot phase alone (`--short`, the
 * guard in CI, or BENCH_RENDER=hot) or the idle phases alone (BENCH_RENDER=rest); the two last on
 * a list saved beforehand, each well under two minutes on this machine.
 */
function phasesOf(
  ctx: BenchContext,
): Pick<RunOptions, 'idleSeconds' | 'spreadSeconds' | 'hotSeconds' | 'seeded'> {
  const form = ctx.short === true ? 'hot' : process.env.BENCH_RENDER
  if (form === 'hot') return { idleSeconds: 0, spreadSeconds: 0, hotSeconds: 8, seeded: true }
  if (form === 'rest') return { idleSeconds: 20, spreadSeconds: 10, hotSeconds: 0, seeded: true }
  return { idleSeconds: 30, spreadSeconds: 20, hotSeconds: 20, seeded: false }
}

export async function renderBench(ctx: BenchContext): Promise<BenchResult> {
  if (builtRendererOrSkip() === null) return skipped('render', 'the app is not built')
  const chromium = findChromium()
  if (chromium === null) return skipped('render', 'no Chromium (apt-get install chromium)')
  const opts: RunOptions = { chromium, log: ctx.log, trace: ctx.trace === true, ...phasesOf(ctx) }
  const ref = await runReference(opts)
  const ours = await runTickdesk(opts)
  const hot = hotRows(ours, ref)
  const idle = idleRows(ours, ref)
  // A run on a saved list typed nothing: nothing to judge there.
  const typed = ours.typed
  return {
    name: 'render',
    rows: [
      ...hot.rows,
      ...idle.rows,
      ...(typed === undefined
        ? []
        : [
            atLeast(
              'symbols typed in quick succession under load, listed',
              typed.listed,
              `of ${typed.asked}`,
              typed.asked,
            ),
          ]),
    ],
    json: {
      ...hot.json,
      ...idle.json,
      ...(typed === undefined ? {} : { typedListed: typed.listed }),
    },
  }
}

/** The hot phase's rows and figures, when the run had it. */
function hotRows(ours: SideResult, ref: SideResult): { rows: BenchRow[]; json: object } {
  if (!ours.hot || !ref.hot) return { rows: [], json: {} }
  const [rh, oh] = [ref.hot, ours.hot].map(figures) as [Figures, Figures]
  const hot = `${HOT_SYMBOLS} symbols, ${HOT_TICKS_PER_SEC} ticks/s`
  const reference = process.env.BENCH_REFERENCE === 'all-rows' ? 'all-rows' : 'rows-in-view'
  return {
    rows: [
      shownRow('hot', oh, rh),
      ratioRow(`hot: tick-to-DOM p95 (${hot})`, oh.p95, rh.p95, 1.5, 'ms'),
      atMost('hot: tick-to-DOM p95', oh.p95, 'ms', 33, `reference ${rh.p95} ms`),
      report(
        'hot: tick-to-DOM p50 / p99',
        oh.p50,
        'ms',
        `p99 ${oh.p99}; reference ${rh.p50} / ${rh.p99} ms`,
      ),
      atMost('hot: long tasks', oh.longTasks, 'tasks', 0, `reference ${rh.longTasks}`),
      ratioRow('hot: CPU, host + Chromium', oh.cpu, rh.cpu, 1.0, '% of a core'),
      // The host parses once into the store and encodes one frame per flush; the relay
      // only forwards the service's frames. Twice the relay's work is the budget for that.
      ratioRow('hot: host CPU', oh.hostCpu, rh.hostCpu, 2.0, '% of a core'),
      report(
        'hot: CPU split',
        oh.hostCpu,
        '% host',
        `Chromium ${oh.browserCpu}%; reference ${rh.hostCpu}% + ${rh.browserCpu}%`,
      ),
      report(
        'hot: main thread',
        round(oh.writesPerSec, 0),
        'price writes/s',
        `${mainThread(ours.hot)}; reference ${rh.writesPerSec} writes/s, ${mainThread(ref.hot)}`,
      ),
      report(
        'hot: grid rows on screen',
        ours.inView ?? 0,
        'rows',
        reference === 'all-rows'
          ? 'the lean page paints all of its rows (BENCH_REFERENCE=all-rows)'
          : `the lean page paints ${REFERENCE_ROWS}`,
      ),
      atMost('host PSS, hot', oh.pss, 'MB', 80, `reference relay ${rh.pss} MB`),
    ],
    json: {
      reference,
      hot: { ...oh },
      referenceHot: { ...rh },
      rowsInView: ours.inView ?? 0,
    },
  }
}
