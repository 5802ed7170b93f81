/**
 * What a new bars array means for the chart's view. 'history': a different series (interval or
 * symbol switch, a refetch that dropped or added many bars): fit it. 'follow': the live bar moved
 * or one bar was appended while the whole series is in view: fit again so the new bar shows.
 * 'keep': the same, but the trader has zoomed or panned: redraw in place and keep their view.
 */
export type ChartUpdate = 'history' | 'follow' | 'keep'

export interface SeriesShape {
  length: number
  firstTime: number | undefined
  lastTime: number | undefined
}

export function classifyChartUpdate(
  prev: SeriesShape | null,
  next: SeriesShape,
  view: { min: number | null | undefined; max: number | null | undefined },
): ChartUpdate {
  if (prev === null || prev.length === 0 || prev.firstTime !== next.firstTime) return 'history'
  const grew = next.length - prev.length
  if (grew !== 0 && grew !== 1) return 'history'
  if (view.min == null || view.max == null) return 'follow'
  const whole =
    view.min <= (prev.firstTime ?? Number.NEGATIVE_INFINITY) &&
    view.max >= (prev.lastTime ?? Number.POSITIVE_INFINITY)
  return whole ? 'follow' : 'keep'
}
