import type uPlot from 'uplot'

/**
 * The detail chart's series: OHLC values for the legend and crosshair (candles themselves are drawn
 * by the candle painter), then volume. One definition for the component and the chart benchmark.
 */
export function legendSeries(format: (v: number | null | undefined) => string): uPlot.Series[] {
  const priceSeries = (label: string, scale = 'y'): uPlot.Series => ({
    label,
    scale,
    stroke: 'transparent',
    width: 0,
    points: { show: false },
    // Legend only: building a 100k-point invisible path per series is wasted work.
    paths: () => null,
    value: (_u, v) => format(v),
  })
  return [
    {},
    priceSeries('Open', 'legend'),
    priceSeries('High'),
    priceSeries('Low'),
    priceSeries('Close', 'legend'),
    {
      label: 'Volume',
      scale: 'vol',
      stroke: 'rgba(100,130,200,0.6)',
      fill: 'rgba(100,130,200,0.25)',
      paths: () => null,
      points: { show: false },
    },
  ]
}
