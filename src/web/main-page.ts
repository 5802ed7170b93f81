import { readStaticFile } from './static-files'

/**
 * The main window's page (index.html), read from the built renderer once when the host starts,
 * so that answering the first visit takes no file read: at a cold start the app service's own
 * start-up keeps the disk and the event loop busy, and reading the page then took 1-35 ms, its
 * stylesheet 5-80 ms more (cold start bench, host timings on a loaded machine). The built
 * renderer does not change under a running host.
 *
 * Beside the page as built, the same page with the entry's stylesheet inline, used when the host
 * draws a cached snapshot into it: a linked stylesheet in the head is render-blocking, so the
 * snapshot could not paint until a second request had come back, which on a busy machine was
 * the longest wait before the first paint (trace). The Content-Security-Policy already allows
 * inline styles (style-src 'unsafe-inline'); no script is inlined.
 *
 * Only our own built file is inlined, and only when it holds no `</` (which could end the <style>
 * element early) and refers to nothing by address (a relative url() would resolve against the
 * page, not against assets/): otherwise the link stays as built.
 */
export interface MainPage {
  /** index.html as built. */
  built: Buffer
  /** index.html with the entry's stylesheet inline (the built text when it cannot be). */
  styled: string
}

const ENTRY_LINK = /<link rel="stylesheet"(?: crossorigin)? href="\.\/(assets\/[\w.-]+\.css)">/

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

/** index.html and its entry stylesheet from the built renderer; null when there is no page. */
export async function readMainPage(root: string): Promise<MainPage | null> {
  const page = await readStaticFile(root, '/')
  if (page === null) return null
  const built = page.body.toString('utf8')
  const link = ENTRY_LINK.exec(built)
  const style = link === null ? null : await readStaticFile(root, `/${link[1]}`)
  return { built: page.body, styled: withInlineStyle(built, style?.body.toString('utf8') ?? null) }
}
