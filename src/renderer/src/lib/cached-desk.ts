/**
 * The browser host's cached snapshot of the list (src/web/cached-desk-html.ts writes it into the
 * page; cached-desk.css hides the app while it is there). Removed when the app has its first
 * state, in the same flush that draws the grid, so the next frame shows the live grid in its
 * place: never both, never neither.
 */
const CACHED_DESK_ID = 'cached-desk'

export function dropCachedDesk(): void {
  document.getElementById(CACHED_DESK_ID)?.remove()
}
