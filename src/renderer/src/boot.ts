/**
 * The page's entry. When the browser host drew the list's cached prices into the page
 * (lib/cached-desk.ts), that picture is painted first and the app's code evaluated after it:
 * evaluating the app's modules takes the main thread for a few hundred ms on a slow machine, and
 * a module script that is ready runs before the first frame (cold start bench, profile). Without
 * a snapshot there is nothing to show early, and the app starts at once.
 */
// The page's styles load with the page (render-blocking), so the snapshot paints styled.
import './app.css'
import './grid/watchlist-table.css'
import './cached-desk.css'

const start = (): void => void import('./main')

if (document.getElementById('cached-desk') === null) start()
// The frame's callback runs before its paint; a task queued from it runs after.
else requestAnimationFrame(() => setTimeout(start, 0))
