import { mount } from 'svelte'
import { openBridge } from './bridge'
import { createAlertSound } from './alerts/alert-sound'
import { startSession } from './lib/app-session'
import { viewMode } from './strip/strip-window'
import { AppState } from './state/app-state.svelte'
import { dropCachedDesk } from './lib/cached-desk'

const bridge = openBridge()
const reducedMotion = window.matchMedia?.('(prefers-reduced-motion: reduce)')
// One renderer bundle, two views: the main window, or the ticker strip (?view=strip, /strip).
const mode = viewMode(window.location)
const app = new AppState(bridge.api, {
  reducedMotion: () => reducedMotion?.matches ?? false,
  // The main window sounds alerts; a strip open beside it must not sound them twice.
  ...(mode === 'main' ? { alertSound: createAlertSound() } : {}),
})
const target = document.getElementById('app')
if (target === null) throw new Error('index.html has no #app element')

// The session (events, then the first snapshot) starts before the view's code is loaded: the
// bridge connects and the host builds the snapshot while the view's chunk downloads, compiles
// and runs, and the view's first render already has the cached list to show (cold start bench:
// the view's module evaluation came first and the bridge opened only after it). It lasts the
// page's life; the view's own startSession finds it started.
startSession(app, bridge.connection)

// Each view is a chunk of its own: the main window never loads the strip's code, nor the strip
// the main window's.
if (mode === 'strip') {
  // The cached list is the main window's; the strip shows its own view at once.
  dropCachedDesk()
  document.title = 'Tickdesk ticker strip'
  void import('./strip/Strip.svelte').then(({ default: Strip }) =>
    mount(Strip, { target, props: { app, connection: bridge.connection } }),
  )
} else
  void import('./App.svelte').then(
    ({ default: App }) => mount(App, { target, props: { app, connection: bridge.connection } }),
    // A view that cannot load must not leave the cached list standing as if it were about to go live.
    (err: unknown) => {
      dropCachedDesk()
      throw err
    },
  )
