import { mount } from 'svelte'
import App from './App.svelte'
import { openBridge } from './bridge'
import { createAlertSound } from './lib/alert-sound'
import { AppState } from './state/app-state.svelte'
import './app.css'

const bridge = openBridge()
const reducedMotion = window.matchMedia?.('(prefers-reduced-motion: reduce)')
const app = new AppState(bridge.api, {
  reducedMotion: () => reducedMotion?.matches ?? false,
  alertSound: createAlertSound(),
})
const target = document.getElementById('app')
if (target === null) throw new Error('index.html has no #app element')

mount(App, { target, props: { app, connection: bridge.connection } })
