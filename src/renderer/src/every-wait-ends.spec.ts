import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/svelte'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { CommandName, PreloadApi } from '../../shared/bridge'
import { electronBridge as createElectronApi } from './bridge'
import { BridgeError } from './bridge/bridge-error'
import App from './App.svelte'
import DetailView from './chart/DetailView.svelte'
import SettingsPanel from './settings/SettingsPanel.svelte'
import { AppState } from './state/app-state.svelte'
import { baseSnapshot, FakeTickdeskApi } from './testing/fake-api'

// The canvas chart needs a real browser (ResizeObserver, 2D context); this test is about the
// words around it, so the chart is an empty component here.
vi.mock('./chart/CandleChart.svelte', () => ({ default: () => undefined }))

/**
 * Every wait ends: an Electron main process that never answers one command (a stuck
 * handler, a keychain call that hangs) ends the renderer's wait at the bridge's deadline, and
 * each loading state shows a message that says what to do. The deadline is 60 ms here; in the
 * app it is commandDeadline() (30 s, longer for the connection test and bulk adds).
 */

/** The fake host behind the preload, except that `stuck` commands are never answered. */
function stuckMain(stuck: CommandName[], fake = new FakeTickdeskApi(baseSnapshot())): PreloadApi {
  return {
    host: 'electron',
    subscribe: (listener) => fake.subscribe(listener),
    invoke: (name, params) =>
      stuck.includes(name)
        ? new Promise(() => undefined)
        : fake.invoke(name, params as never).then(
            (result) => ({ ok: true as const, result }),
            (e: BridgeError) => ({
              ok: false as const,
              error: { code: e.code, message: e.message },
            }),
          ),
  }
}

afterEach(cleanup)

const api = (stuck: CommandName[]) => createElectronApi(stuckMain(stuck), { requestTimeoutMs: 60 })
const NEXT_STEP = /TIMEOUT\)\. No answer in time\. Check your network and the Base URL in Settings/

describe('every wait ends in a message that says what to do', () => {
  it('the bridge: a command main never answers fails as TIMEOUT at the deadline', async () => {
    const error = await api(['getSnapshot'])
      .invoke('getSnapshot', {})
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(BridgeError)
    expect(error).toMatchObject({ code: 'TIMEOUT', message: 'getSnapshot got no answer' })
  })

  it('the first snapshot: the main window says it could not load, and what to do', async () => {
    const app = new AppState(api(['getSnapshot']))
    render(App, { props: { app } })
    await app.load()
    expect(app.ready).toBe(false)
    const alert = await screen.findByText(/Could not load: getSnapshot got no answer/)
    expect(alert.textContent).toMatch(NEXT_STEP)
  })

  it('the chart: "Loading candles…" gives way to the timeout and what to do', async () => {
    const app = new AppState(api(['getCandles']))
    await app.load()
    render(DetailView, { props: { app, key: 'crypto:BTCUSDT', onclose: () => undefined } })
    expect(screen.getByText('Loading candles…')).toBeTruthy()
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toMatch(/getCandles got no answer/)
    expect(alert.textContent).toMatch(NEXT_STEP)
    expect(screen.queryByText('Loading candles…')).toBeNull()
  })

  it('the connection test: "Testing…" ends, the button comes back, the message says what to do', async () => {
    const app = new AppState(api(['testConnection']))
    await app.load()
    render(SettingsPanel, { props: { app, onclose: () => undefined } })
    await fireEvent.click(screen.getByRole('button', { name: 'Test connection' }))
    expect(screen.getByRole('button', { name: 'Testing…' })).toBeTruthy()
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Test connection' })).toBeTruthy(),
    )
    expect(document.body.textContent).toMatch(/testConnection got no answer/)
    expect(document.body.textContent).toMatch(NEXT_STEP)
  })

  it('the connection test against a silent service: the report says what to do next', async () => {
    const fake = new FakeTickdeskApi(baseSnapshot())
    const check = (name: string) => ({
      name,
      ok: false,
      code: 'TIMEOUT',
      message: `GET /api/v1/${name} timed out after 10000 ms`,
      latencyMs: null,
    })
    const answer = fake.invoke.bind(fake)
    fake.invoke = ((name: CommandName, params: never) =>
      name === 'testConnection'
        ? Promise.resolve({
            ok: false,
            baseUrl: 'http://127.0.0.1:9',
            plan: 'free',
            requestsSpent: 2,
            checks: [check('quote'), check('kline')],
          })
        : answer(name, params)) as never
    const app = new AppState(createElectronApi(stuckMain([], fake), { requestTimeoutMs: 60 }))
    await app.load()
    render(SettingsPanel, { props: { app, onclose: () => undefined } })
    await fireEvent.click(screen.getByRole('button', { name: 'Test connection' }))
    const step = await screen.findByTestId('doctor-next-step')
    expect(step.textContent).toMatch(/Check your network and the Base URL in Settings/)
  })
})
