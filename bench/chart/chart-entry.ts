/// <reference lib="dom" />
import uPlot from 'uplot'
import { classifyChartUpdate, type SeriesShape } from '../../src/renderer/src/chart/chart-update'
import { createCandlePainter } from '../../src/renderer/src/chart/plot/candle-draw'
import { legendSeries } from '../../src/renderer/src/chart/plot/legend-series'

/**
 * Browser-side half of bench/chart/chart.ts, bundled by esbuild. The options and the update logic
 * mirror src/renderer/src/chart/CandleChart.svelte (keep them in step: the component itself
 * cannot be loaded without Svelte's compiler); the candle painter and the update classification
 * are the component's own modules. Times are measured to the end of uPlot's draw hook.
 */
type Columns = [number[], number[], number[], number[], number[], number[]]

// The component's painter itself (grouped per pixel column, batched fills).
const drawCandles = createCandlePainter(() => ({
  up: '#16803c',
  down: '#c62828',
  volume: 'rgba(100,130,200,0.45)',
}))

function columns(n: number): Columns {
  const cols: Columns = [[], [], [], [], [], []]
  let p = 100
  const t0 = 1_700_000_000
  for (let i = 0; i < n; i++) {
    const o = p
    p *= 1 + Math.sin(i * 12.9898) * 0.002
    cols[0].push(t0 + i * 60)
    cols[1].push(o)
    cols[2].push(Math.max(o, p) * 1.001)
    cols[3].push(Math.min(o, p) * 0.999)
    cols[4].push(p)
    cols[5].push(10 + (i % 17))
  }
  return cols
}

async function runChartBench(
  n: number,
  appends: number,
): Promise<{ firstRenderMs: number; appendMs: number[] }> {
  const host = document.createElement('div')
  host.style.width = '1000px'
  document.body.appendChild(host)
  let drawn: (() => void) | null = null
  const nextDraw = (): Promise<number> =>
    new Promise((resolve) => {
      drawn = () => resolve(performance.now())
    })
  const opts: uPlot.Options = {
    width: 1000,
    height: 320,
    cursor: { drag: { x: true, y: false } },
    scales: {
      x: { time: true },
      vol: { range: (_u, _min, max) => [0, max * 4] },
      legend: { auto: false, range: () => [0, 1] },
    },
    axes: [{}, { scale: 'y', values: (_u, ticks) => ticks.map((t) => t.toFixed(2)) }],
    series: legendSeries((v) => (v == null ? '—' : v.toFixed(2))),
    hooks: { draw: [drawCandles, () => drawn?.()] },
  }
  const data = columns(n)
  const t0 = performance.now()
  const first = nextDraw()
  const chart = new uPlot(opts, data as unknown as uPlot.AlignedData, host)
  const firstRenderMs = (await first) - t0
  const appendMs: number[] = []
  let shown: SeriesShape | null = {
    length: data[0].length,
    firstTime: data[0][0],
    lastTime: data[0][data[0].length - 1],
  }
  for (let i = 0; i < appends; i++) {
    const last = data[4][data[4].length - 1] ?? 100
    data[0].push((data[0][data[0].length - 1] ?? 0) + 60)
    data[1].push(last)
    data[2].push(last * 1.001)
    data[3].push(last * 0.999)
    data[4].push(last * 1.0005)
    data[5].push(12)
    const a0 = performance.now()
    const done = nextDraw()
    // As CandleChart's columns effect does on a new bar (the view shows the whole series, so it
    // follows: refit; a zoomed view would be redrawn in place instead).
    const xs = data[0]
    const next: SeriesShape = { length: xs.length, firstTime: xs[0], lastTime: xs[xs.length - 1] }
    const kind = classifyChartUpdate(shown, next, {
      min: chart.scales.x?.min,
      max: chart.scales.x?.max,
    })
    shown = next
    if (kind === 'keep') {
      chart.setData(data as unknown as uPlot.AlignedData, false)
      chart.redraw(true, false)
    } else chart.setData(data as unknown as uPlot.AlignedData, true)
    appendMs.push((await done) - a0)
    await new Promise((r) => requestAnimationFrame(r))
  }
  chart.destroy()
  host.remove()
  return { firstRenderMs, appendMs }
}

;(globalThis as { runChartBench?: typeof runChartBench }).runChartBench = runChartBench
