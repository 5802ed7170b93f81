/**
 * jsdom has no matchMedia, and the chart's uPlot asks for it when it loads. A spec that renders
 * a view which may load the chart imports this first, so the stand-in is there before uPlot is.
 * It matches nothing (no reduced motion, no dark scheme).
 */
window.matchMedia ??= ((query: string) => ({
  matches: false,
  media: query,
  addEventListener: () => undefined,
  removeEventListener: () => undefined,
})) as unknown as typeof window.matchMedia
