import type uPlot from 'uplot'
import { classifyChartUpdate, type SeriesShape } from './chart-update'
import type { BarColumns } from './plot/bar-columns'
import { COMPARE_COLOUR, compareLine, percentFrom, type Overlay } from './chart-studies'

/** time, open, high, low, close, volume: the columns every other series follows. */
export const BASE_SERIES = 6

/** A second symbol's bars, drawn from the first visible bar on the percent axis. */
export interface CompareBars {
  label: string
  times: number[]
  closes: number[]
}

/** Everything the price plot draws, as the component's props give it. */
export interface PriceInputs {
  columns: BarColumns
  overlays: Overlay[]
  compare: CompareBars | null
  /** First visible bar: the compare line's base. */
  firstVisible: number
}

/**
 * The price plot's data: the bars' columns, then one column per study line and the compare line,
 * fed into one uPlot with setData() (uPlot: never recreate a chart to update it). Decides, per
 * new set of bars, whether the trader's zoom is kept (chart-update.ts classifyChartUpdate), and
 * swaps the study series in place when the lines change. Keeps the compare line's base, which
 * the legend and the percent axis read when they draw.
 */
export class PricePlotData {
  compareBase: number | null = null
  private shown: SeriesShape | null = null
  private shownLabels = ''
  private shownCompare = false

  constructor(private readonly format: (v: number | null | undefined) => string) {}

  /** The percent axis' text for a price, '' without a compare line. */
  percentText(hasCompare: boolean, price: number): string {
    return hasCompare && this.compareBase !== null ? percentFrom(this.compareBase, price) : ''
  }

  /** The data of a new chart; `attach` adds the study series once it exists. */
  data(inputs: PriceInputs): uPlot.AlignedData {
    return this.assemble(inputs)
  }

  attach(chart: uPlot, inputs: PriceInputs): void {
    for (const s of this.extraSeries(inputs)) chart.addSeries(s)
    this.shownLabels = labelsOf(inputs)
    this.shownCompare = inputs.compare !== null
  }

  /** New bars or lines for the chart that shows them. */
  update(c: uPlot, inputs: PriceInputs): void {
    const data = this.assemble(inputs)
    const labels = labelsOf(inputs)
    const xs = inputs.columns[0]
    const next: SeriesShape = { length: xs.length, firstTime: xs[0], lastTime: xs[xs.length - 1] }
    const x = c.scales.x
    const kind = classifyChartUpdate(this.shown, next, { min: x?.min, max: x?.max })
    this.shown = next
    if (labels !== this.shownLabels) {
      // New indicator lines: drop the old series, swap the data, add the new series (uPlot wants
      // a column for every series at any moment), then refit y to the same x range.
      while (c.series.length > BASE_SERIES) c.delSeries(c.series.length - 1)
      c.setData(data, kind !== 'keep')
      for (const s of this.extraSeries(inputs)) c.addSeries(s)
      this.shownLabels = labels
      if (kind === 'keep' && x?.min != null && x.max != null)
        c.setScale('x', { min: x.min, max: x.max })
      // The percent axis takes or gives back its width.
      const hasCompare = inputs.compare !== null
      if (this.shownCompare !== hasCompare) c.setSize({ width: c.width, height: c.height })
      this.shownCompare = hasCompare
      return
    }
    if (kind === 'keep') {
      // uPlot 1.6: setData(data, false) swaps the data but does not redraw; redraw(true) rebuilds
      // paths at the current x range, so a live bar never resets the trader's zoom.
      c.setData(data, false)
      c.redraw(true, false)
    } else c.setData(data, true)
  }

  private assemble(inputs: PriceInputs): uPlot.AlignedData {
    const { columns, overlays, compare } = inputs
    const extra: Array<Array<number | null>> = overlays.map((o) => o.values)
    this.compareBase = null
    if (compare) {
      const line = compareLine(columns, compare, inputs.firstVisible)
      this.compareBase = line.base
      extra.push(line.values)
    }
    return [...columns, ...extra] as unknown as uPlot.AlignedData
  }

  /** Series after volume, in the order their columns follow the bars'. */
  private extraSeries(inputs: PriceInputs): uPlot.Series[] {
    const out = inputs.overlays.map((o) => lineSeries(o, (_u, v) => this.format(v)))
    if (inputs.compare)
      out.push(
        lineSeries({ label: inputs.compare.label, colour: COMPARE_COLOUR }, (_u, v) =>
          v === null || this.compareBase === null ? '—' : percentFrom(this.compareBase, v),
        ),
      )
    return out
  }
}

/** Which study lines are drawn: a change swaps the series, the same lines only the data. */
function labelsOf({ overlays, compare }: PriceInputs): string {
  return [...overlays.map((o) => o.label + o.colour), compare?.label ?? ''].join('|')
}

function lineSeries(o: { label: string; colour: string }, value: uPlot.Series['value']) {
  return {
    label: o.label,
    scale: 'y',
    stroke: o.colour,
    width: 1.5,
    points: { show: false },
    value,
  } satisfies uPlot.Series
}
