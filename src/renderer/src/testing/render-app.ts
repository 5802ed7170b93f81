import { render, waitFor } from '@testing-library/svelte'
import { tick, type Component } from 'svelte'
import { expect } from 'vitest'
import type { Snapshot } from '../../../shared/bridge'
import App from '../App.svelte'
import { preloadPanels } from '../lazy-views'
import { AppState } from '../state/app-state.svelte'
import { baseSnapshot, FakeTickdeskApi } from './fake-api'

export interface Rendered {
  api: FakeTickdeskApi
  app: AppState
  timers: Array<() => void>
  clock: { now: number }
  /** Runs the animation frame the quote apply waits for, then lets Svelte settle. */
  frame: () => Promise<void>
}

/**
 * Renders a view (the main window by default) over the in-memory host, with a hand-driven clock,
 * timers and animation frames, and waits for the snapshot to load.
 */
export async function renderApp(
  snapshot: Partial<Snapshot> = {},
  opts: {
    reducedMotion?: boolean
    view?: Component<{ app: AppState }>
    host?: 'web' | 'electron'
  } = {},
): Promise<Rendered> {
  // The panels are chunks of their own (lazy-views.ts): in before the app, as after the idle
  // preload, so a spec's click finds the panel drawn (their first transform here takes seconds).
  await preloadPanels()
  const api = new FakeTickdeskApi(baseSnapshot(snapshot))
  if (opts.host) api.host = opts.host
  const clock = { now: new Date(2025, 10, 21, 16, 30).getTime() }
  const timers: Array<() => void> = []
  const frames: Array<() => void> = []
  const app = new AppState(api, {
    now: () => clock.now,
    setTimer: (fn) => timers.push(fn),
    reducedMotion: () => opts.reducedMotion ?? false,
    requestFrame: (run) => frames.push(run),
  })
  // Both views take just the app (the strip and the main window); the cast spans their prop types.
  render((opts.view ?? App) as typeof App, { props: { app } })
  await waitFor(() => expect(app.ready).toBe(true))
  await tick()
  const frame = async (): Promise<void> => {
    for (const run of frames.splice(0)) run()
    await tick()
  }
  return { api, app, timers, clock, frame }
}
