/**
 * The bench's headline figures, as the regression guard records and judges them: each read from
 * one `npm run bench -- --json` summary, as a ratio to the reference measured in the same run
 * where there is one (a shared machine moves absolute times by more than most changes do).
 * `resolution` is the smallest move a figure can show (a count of one, a rounding step): a slip
 * must pass both it and the figure's own run-to-run spread (judge.ts).
 */
export type Summary = Record<string, Record<string, unknown> | undefined>

export interface Figure {
  id: string
  label: string
  unit: string
  better: 'lower' | 'higher'
  /** What the figure is measured against, for the table and the docs. */
  against: string
  /** The target it is held to (docs/bench.md), for the table. */
  target: string
  resolution: number
  /** The benchmark that measures it (`--only` name). */
  bench: string
  /** Measured by the short form (CI) too. */
  short: boolean
  read(summary: Summary): number | undefined
}

const num = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) ? v : undefined
const field = (s: Summary, section: string, ...path: string[]): number | undefined => {
  let v: unknown = s[section]
  for (const p of path) v = (v as Record<string, unknown> | undefined)?.[p]
  return num(v)
}
const ratio = (a: number | undefined, b: number | undefined): number | undefined =>
  a === undefined || b === undefined || b <= 0 ? undefined : Math.round((a / b) * 1000) / 1000

/**
 * A render phase's ratio counts only where the desk wrote at least MIN_SHOWN of the prices the
 * lean page wrote in the same phase. A desk that polled instead of streaming (the stream's prices
 * not yet trusted) does less work for fewer prices and would read as a win; its figure is left
 * out (MISSING in the table) rather than recorded. Older summaries without the counts still read.
 */
export const MIN_SHOWN = 0.9
const phaseRatio = (
  s: Summary,
  phase: string,
  refPhase: string,
  key: string,
): number | undefined => {
  const ours = field(s, 'render', phase, 'writesPerSec')
  const ref = field(s, 'render', refPhase, 'writesPerSec')
  if (ours !== undefined && ref !== undefined && ours < ref * MIN_SHOWN) return undefined
  return ratio(field(s, 'render', phase, key), field(s, 'render', refPhase, key))
}

export const FIGURES: readonly Figure[] = [
  {
    id: 'render.hotLongTasks',
    label: 'live grid hot: long tasks in the phase',
    unit: 'tasks',
    better: 'lower',
    against: 'none (a count)',
    target: '0',
    // One long task came and went between two runs of unchanged code (weekend clock, quiet).
    resolution: 1,
    bench: 'render',
    short: true,
    read: (s) => field(s, 'render', 'hot', 'longTasks'),
  },
  {
    id: 'render.hotP95Ratio',
    label: 'live grid hot: tick-to-DOM p95',
    unit: 'x',
    better: 'lower',
    against: 'the lean page, same run',
    target: '<= 1.1',
    resolution: 0.05,
    bench: 'render',
    short: true,
    read: (s) => phaseRatio(s, 'hot', 'referenceHot', 'p95'),
  },
  {
    id: 'render.hotCpuRatio',
    label: 'live grid hot: CPU, host + Chromium',
    unit: 'x',
    better: 'lower',
    against: 'relay + lean page, same run',
    target: '<= 1.0',
    resolution: 0.03,
    bench: 'render',
    short: true,
    read: (s) => phaseRatio(s, 'hot', 'referenceHot', 'cpu'),
  },
  {
    id: 'render.hotHostCpuRatio',
    label: 'live grid hot: host CPU',
    unit: 'x',
    better: 'lower',
    against: 'the relay, same run',
    target: '<= 2.0',
    resolution: 0.1,
    bench: 'render',
    short: true,
    read: (s) => phaseRatio(s, 'hot', 'referenceHot', 'hostCpu'),
  },
  {
    id: 'render.idleCpuRatio',
    label: 'at rest (50 symbols, 1 tick/s): CPU',
    unit: 'x',
    better: 'lower',
    against: 'relay + lean page, same run',
    target: '<= 1.5',
    resolution: 0.1,
    bench: 'render',
    short: false,
    read: (s) => phaseRatio(s, 'idle', 'referenceIdle', 'cpu'),
  },
  {
    id: 'render.spreadCpuRatio',
    label: 'at rest, each tick its own frame: CPU',
    unit: 'x',
    better: 'lower',
    against: 'relay + lean page, same run',
    target: '<= 1.5',
    resolution: 0.1,
    bench: 'render',
    short: false,
    read: (s) => phaseRatio(s, 'idleSpread', 'referenceIdleSpread', 'cpu'),
  },
  {
    id: 'render.hotPssMB',
    label: 'live grid hot: host PSS',
    unit: 'MB',
    better: 'lower',
    against: 'none (absolute)',
    target: '<= 80',
    resolution: 2,
    bench: 'render',
    short: true,
    read: (s) => field(s, 'render', 'hot', 'pss'),
  },
  {
    // When Chromium presented the last cached price in view (Element Timing), read hands-off
    // (bench/cold-start/cold-start.ts). It replaces 'coldStart.ms' (recorded until cb6c7b0):
    // that was when a poll from Node heard of the rows, and the poll ran in the page it timed.
    id: 'coldStart.paintedMs',
    label: 'cold start, cached prices in view painted (median of 3)',
    unit: 'ms',
    better: 'lower',
    against: 'none (absolute)',
    target: '<= 250',
    resolution: 15,
    bench: 'coldStart',
    short: true,
    read: (s) => field(s, 'coldStart', 'paintedMs'),
  },
  {
    // The painted figure from the page's navigation, against the lean page in the same run (one
    // static table of the same rows, no script, a bare server already up:
    // bench/cold-start/cold-start-reference.ts): what Chromium here takes anyway is its figure.
    id: 'coldStart.paintedRatio',
    label: 'cold start, cached prices painted from navigation',
    unit: 'x',
    better: 'lower',
    against: 'the lean static page, same run',
    target: 'none (reported)',
    resolution: 0.05,
    bench: 'coldStart',
    short: true,
    read: (s) =>
      ratio(field(s, 'coldStart', 'paintedFromNavMs'), field(s, 'coldStart', 'leanPaintedMs')),
  },
  {
    // The frame in which an observer installed before the document first saw every row priced:
    // its animation callback, before the frame is painted (bench/cold-start/cold-start.ts).
    id: 'coldStart.inPageMs',
    label: "cold start, cached list in the page's frame (median of 3)",
    unit: 'ms',
    better: 'lower',
    against: 'none (absolute)',
    target: 'none (reported)',
    resolution: 15,
    bench: 'coldStart',
    short: true,
    read: (s) => field(s, 'coldStart', 'inPageMs'),
  },
  {
    // The app's own grid taking the cached picture's place, the frame the page's observer saw it
    // in. It replaces 'coldStart.liveGridMs' (until cb6c7b0: when a poll from Node heard of it).
    id: 'coldStart.liveGridFrameMs',
    label: 'cold start, live grid mounted (median of 3)',
    unit: 'ms',
    better: 'lower',
    against: 'none (absolute)',
    target: 'none (reported)',
    resolution: 15,
    bench: 'coldStart',
    short: true,
    read: (s) => field(s, 'coldStart', 'liveGridFrameMs'),
  },
  {
    id: 'ingest.pctOfRaw',
    label: 'ingest, batched frames',
    unit: '% of raw',
    better: 'higher',
    against: 'raw ws + JSON.parse, same run',
    target: '>= 75',
    resolution: 2,
    bench: 'ingest',
    short: false,
    read: (s) => field(s, 'ingest', 'pctOfRaw'),
  },
  {
    id: 'biglist.switchRatio',
    label: '5000-symbol list: switch, frame p95',
    unit: 'x',
    better: 'lower',
    against: 'the lean div page, same run',
    target: '<= 1.2',
    resolution: 0.05,
    bench: 'biglist',
    short: false,
    read: (s) =>
      ratio(
        field(s, 'biglist', 'switch', 'frameP95'),
        field(s, 'biglist', 'referenceDivs', 'switch', 'frameP95'),
      ),
  },
  {
    id: 'biglist.sortRatio',
    label: '5000-symbol list: sort, frame p95',
    unit: 'x',
    better: 'lower',
    against: 'the lean div page, same run',
    target: '<= 1.2',
    resolution: 0.05,
    bench: 'biglist',
    short: false,
    read: (s) =>
      ratio(
        field(s, 'biglist', 'sort', 'frameP95'),
        field(s, 'biglist', 'referenceDivs', 'sort', 'frameP95'),
      ),
  },
]

/** The figures a form of the guard measures, and the benchmarks that measure them. */
export function figuresOf(short: boolean): { figures: Figure[]; benches: string[] } {
  const figures = FIGURES.filter((f) => !short || f.short)
  return { figures, benches: [...new Set(figures.map((f) => f.bench))] }
}

/** Every figure a summary holds. */
export function readFigures(summary: Summary, figures: readonly Figure[]): Record<string, number> {
  const out: Record<string, number> = {}
  for (const f of figures) {
    const v = f.read(summary)
    if (v !== undefined) out[f.id] = v
  }
  return out
}
