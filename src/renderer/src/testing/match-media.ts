/**
 * jsdom has no matchMedia, and the chart's uPlot asks for it when it loads. The renderer projects
 * run this before every spec file (setupFiles), so the stand-in is there before uPlot is, in
 * whichever file of a worker loads it first. It matches nothing (no reduced motion, no dark scheme).
 */
window.matchMedia ??= ((query: string) => ({
  matches: false,
  media: query,
  addEventListener: () => undefined,
  removeEventListener: () => undefined,
})) as unknown as typeof window.matchMedia
