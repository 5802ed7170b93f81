import appIconSvg from '../../../../resources/icon.svg?no-inline'

/**
 * Puts the app icon on the tab. index.html starts with an empty one: an SVG image is a document
 * of its own, built on the page's main thread, so it is shown once the watchlist is (App.svelte,
 * after the first frame with the snapshot's rows), not in the page's first second.
 */
export function showAppIcon(doc: Document = document): void {
  const link = doc.querySelector<HTMLLinkElement>('link[rel="icon"]')
  if (link === null || link.getAttribute('href') === appIconSvg) return
  link.type = 'image/svg+xml'
  link.href = appIconSvg
}
