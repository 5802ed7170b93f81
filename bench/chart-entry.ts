/// <reference lib="dom" />
import uPlot from 'uplot'

/**
 * Browser-side half of bench/chart.ts, bundled by esbuild. The options and the candle draw hook
 * mirror src/renderer/src/components/CandleChart.svelte (keep them in step: the component itself
 * cannot be loaded without Svelte's compiler). Times are measured to the end of uPlot's draw hook.
 */
type Columns = [number[], number[], number[], number[], number[], number[]]

function drawCandles(u: uPlot): void {
  const ctx = u.ctx
  const [xs, opens, highs, lows, closes] = u.data as unknown as Columns
  const first = Math.max(0, (u.series[0]?.idxs?.[0] ?? 0) - 1)
  const last = Math.min(xs.length - 1, (u.series[0]?.idxs?.[1] ?? xs.length - 1) + 1)
  const span =
    last > first
      ? (u.valToPos(xs[last] ?? 0, 'x', true) - u.valToPos(xs[first] ?? 0, 'x', true)) /
        (last - first)
      : 8
  const body = Math.max(1, Math.min(12, span * 0.6))
  ctx.save()
  for (let i = first; i <= last; i++) {
    const o = opens[i]
    const h = highs[i]
    const l = lows[i]
    const c = closes[i]
    const t = xs[i]
    if (o === undefined || h === undefined || l === undefined || c === undefined || t === undefined)
      continue
    const x = Math.round(u.valToPos(t, 'x', true))
    const yo = u.valToPos(o, 'y', true)
    const yc = u.valToPos(c, 'y', true)
    ctx.strokeStyle = ctx.fillStyle = c >= o ? '#16803c' : '#c62828'
    ctx.beginPath()
    ctx.moveTo(x + 0.5, u.valToPos(h, 'y', true))
    ctx.lineTo(x + 0.5, u.valToPos(l, 'y', true))
    ctx.stroke()
    ctx.fillRect(x - body / 2, Math.min(yo, yc), body, Math.max(1, Math.abs(yc - yo)))
  }
  ctx.restore()
}

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
  const priceSeries = (label: string): uPlot.Series => ({
    label,
    scale: 'y',
    stroke: 'transparent',
    width: 0,
    points: { show: false },
    value: (_u, v) => (v == null ? '—' : v.toFixed(2)),
  })
  const opts: uPlot.Options = {
    width: 1000,
    height: 320,
    cursor: { drag: { x: true, y: false } },
    scales: { x: { time: true }, vol: { range: (_u, _min, max) => [0, max * 4] } },
    axes: [{}, { scale: 'y', values: (_u, ticks) => ticks.map((t) => t.toFixed(2)) }],
    series: [
      {},
      priceSeries('Open'),
      priceSeries('High'),
      priceSeries('Low'),
      { ...priceSeries('Close'), stroke: 'rgba(120,120,120,0.35)', width: 1 },
      {
        label: 'Volume',
        scale: 'vol',
        stroke: 'rgba(100,130,200,0.6)',
        fill: 'rgba(100,130,200,0.25)',
        paths: uPlot.paths.bars?.({ size: [0.6, 12] }),
        points: { show: false },
      },
    ],
    hooks: { draw: [drawCandles, () => drawn?.()] },
  }
  const data = columns(n)
  const t0 = performance.now()
  const first = nextDraw()
  const chart = new uPlot(opts, data as unknown as uPlot.AlignedData, host)
  const firstRenderMs = (await first) - t0
  const appendMs: number[] = []
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
    // As CandleChart does on a new bar: setData without rescale (which alone does not redraw in
    // uPlot 1.6), then its resetSignal effect, which also depends on columns, sets the x range.
    chart.setData(data as unknown as uPlot.AlignedData, false)
    chart.setScale('x', { min: data[0][0] ?? 0, max: data[0][data[0].length - 1] ?? 0 })
    appendMs.push((await done) - a0)
    await new Promise((r) => requestAnimationFrame(r))
  }
  chart.destroy()
  host.remove()
  return { firstRenderMs, appendMs }
}

;(globalThis as { runChartBench?: typeof runChartBench }).runChartBench = runChartBench
