import { build } from 'esbuild'
import { fileURLToPath } from 'node:url'
import { browserOrSkip } from '../chromium-page'
import {
  atMost,
  median,
  percentile,
  report,
  round,
  skipped,
  type BenchContext,
  type BenchResult,
} from '../stats'

/**
 * chart: uPlot with the detail chart's options and candle draw hook (bench/chart/chart-entry.ts), 100k
 * one-minute bars in Chromium: first render (constructor to end of the first draw) and the
 * median append (setData with one more bar to end of its draw), plus a 300-bar chart (what the
 * detail view loads today) for scale.
 */
const BARS = Number(process.env.BENCH_CHART_BARS ?? 100_000)
const APPENDS = 30

async function bundle(): Promise<string> {
  const out = await build({
    entryPoints: [fileURLToPath(new URL('./chart-entry.ts', import.meta.url))],
    bundle: true,
    format: 'iife',
    write: false,
    minify: true,
    target: 'chrome120',
  })
  return out.outputFiles[0]?.text ?? ''
}

export async function chartBench(ctx: BenchContext): Promise<BenchResult> {
  const browser = await browserOrSkip()
  if (typeof browser === 'string') return skipped('chart', browser)
  try {
    const script = await bundle()
    const page = await browser.newPage({ viewport: { width: 1200, height: 800 } })
    await page.setContent('<!doctype html><html><body></body></html>')
    await page.addScriptTag({ content: script })
    type Run = { firstRenderMs: number; appendMs: number[] }
    const run = (n: number): Promise<Run> =>
      page.evaluate(
        ([bars, appends]) =>
          (
            globalThis as unknown as { runChartBench: (n: number, a: number) => Promise<Run> }
          ).runChartBench(bars, appends),
        [n, APPENDS] as const,
      )
    await run(1000) // warm-up: JIT, fonts
    const small = await run(300)
    const firsts: number[] = []
    const appends: number[] = []
    for (let i = 0; i < 3; i++) {
      const r = await run(BARS)
      firsts.push(r.firstRenderMs)
      appends.push(...r.appendMs)
    }
    await page.close()
    const first = median(firsts)
    const append = median(appends)
    ctx.log(`chart: first ${round(first)} ms, append median ${round(append)} ms`)
    return {
      name: 'chart',
      rows: [
        atMost('100k bars: first render', round(first), 'ms', 100),
        atMost(
          '100k bars: append one bar (median)',
          round(append),
          'ms',
          4,
          `p95 ${round(percentile(appends, 95))} ms`,
        ),
        report(
          '300 bars: first render',
          round(small.firstRenderMs),
          'ms',
          `append median ${round(median(small.appendMs))} ms`,
        ),
      ],
      json: {
        firstRenderMs: round(first),
        appendMs: round(append),
        appendP95Ms: round(percentile(appends, 95)),
        bars300FirstRenderMs: round(small.firstRenderMs),
      },
    }
  } finally {
    await browser.close()
  }
}
