import { mount } from 'svelte'
import App from './App.svelte'
import { openBridge } from './bridge'
import { createAlertSound } from './alerts/alert-sound'
import { viewMode } from './strip/strip-window'
import { AppState } from './state/app-state.svelte'
import './app.css'

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

if (mode === 'strip') {
  document.title = 'Tickdesk ticker strip'
  // Its own chunk: the main window never loads the strip's code, nor the strip the main window's.
  void import('./strip/Strip.svelte').then(({ default: Strip }) =>
    mount(Strip, { target, props: { app, connection: bridge.connection } }),
  )
} else mount(App, { target, props: { app, connection: bridge.connection } })
