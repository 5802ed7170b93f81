/**
 * The entry's stylesheet written into the page the browser host serves with a cached snapshot,
 * in place of the `<link>` the build put there. A linked stylesheet in the head is
 * render-blocking: the snapshot could not paint until a second request had gone to the host and
 * come back, which on a busy machine was the longest wait before the first paint (cold start
 * bench, trace). Inline, the page paints from its one response. The Content-Security-Policy
 * already allows inline styles (style-src 'unsafe-inline'); no script is inlined.
 *
 * Only our own built file is inlined, and only when it holds no `</` (which could end the <style>
 * element early) and refers to nothing by address (a relative url() would resolve against the
 * page, not against assets/): otherwise the link stays as built.
 */
const ENTRY_LINK = /<link rel="stylesheet"(?: crossorigin)? href="\.\/(assets\/[\w.-]+\.css)">/

/** The stylesheet's path inside the renderer folder, e.g. "/assets/index-abc.css"; null if none. */
export function entryStylePath(page: string): string | null {
  const m = ENTRY_LINK.exec(page)
  return m === null ? null : `/${m[1]}`
}

/** True when the text is safe to put between <style> and </style> unchanged. */
export function inlinable(css: string): boolean {
  return !/<\/|url\(|@import/i.test(css)
}

/** The page with its entry stylesheet inline; unchanged when `css` is null or not inlinable. */
export function withInlineStyle(page: string, css: string | null): string {
  if (css === null || !inlinable(css)) return page
  const m = ENTRY_LINK.exec(page)
  if (m === null) return page
  return page.slice(0, m.index) + `<style>${css}</style>` + page.slice(m.index + m[0].length)
}
