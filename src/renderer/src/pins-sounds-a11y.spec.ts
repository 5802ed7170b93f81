import { fireEvent, render, screen, waitFor, within } from '@testing-library/svelte'
import { tick } from 'svelte'
import { describe, expect, it } from 'vitest'
import App from './App.svelte'
import { AppState } from './state/app-state.svelte'
import { baseSnapshot, FakeTickdeskApi } from './testing/fake-api'
import { SettingsSchema } from '../../shared/settings'
import type { Snapshot } from '../../shared/bridge'
import { firedAlert } from './testing/fake-snapshot'
import { BEEP_SECONDS, createAlertSound, type BeepContext } from './alerts/alert-sound'
import { MAX_PINNED, togglePinned } from './lib/pins'

async function setup(
  snapshot: Partial<Snapshot> = {},
): Promise<{ api: FakeTickdeskApi; app: AppState; beeps: number[] }> {
  const api = new FakeTickdeskApi(baseSnapshot(snapshot))
  const beeps: number[] = []
  const app = new AppState(api, {
    now: () => 0,
    setTimer: () => undefined,
    reducedMotion: () => true,
    alertSound: () => beeps.push(1),
  })
  render(App, { props: { app } })
  await waitFor(() => expect(app.ready).toBe(true))
  await tick()
  return { api, app, beeps }
}

const fired = firedAlert()

describe('pinned symbols (shown in the tray)', () => {
  it('pins a row with its pin toggle through updateSettings, and unpins it again', async () => {
    const { api } = await setup()
    const pin = screen.getByRole('button', { name: 'Pin fx:EURUSD to the tray' })
    expect(pin.getAttribute('aria-pressed')).toBe('false')
    await fireEvent.click(pin)
    await waitFor(() => expect(pin.getAttribute('aria-pressed')).toBe('true'))
    expect(api.callsOf('updateSettings')).toEqual([{ pinned: ['fx:EURUSD'] }])
    await fireEvent.click(pin)
    await waitFor(() => expect(pin.getAttribute('aria-pressed')).toBe('false'))
    expect(api.callsOf('updateSettings').at(-1)).toEqual({ pinned: [] })
  })

  it('pins the selected row with "p"', async () => {
    const { api } = await setup()
    await fireEvent.keyDown(window, { key: 'j' })
    await fireEvent.keyDown(window, { key: 'p' })
    await waitFor(() =>
      expect(api.callsOf('updateSettings')).toEqual([{ pinned: ['crypto:BTCUSDT'] }]),
    )
  })

  it('refuses an eleventh pin with a message instead of a failed call', async () => {
    const ten = Array.from({ length: MAX_PINNED }, (_, i) => `crypto:C${i}USDT`)
    const { api } = await setup({ settings: SettingsSchema.parse({ pinned: ten }) })
    await fireEvent.click(screen.getByRole('button', { name: 'Pin fx:EURUSD to the tray' }))
    await waitFor(() => expect(screen.getByRole('alert').textContent).toMatch(/At most 10/))
    expect(api.callsOf('updateSettings')).toEqual([])
    expect(togglePinned(ten, ten[3]!)).toEqual({ ok: true, pinned: ten.filter((_, i) => i !== 3) })
  })
})

describe('alert sound', () => {
  it('beeps once per fired alert while sounds are on, and not at all when they are off', async () => {
    const { api, beeps } = await setup({ settings: SettingsSchema.parse({ sounds: true }) })
    api.emit({ type: 'alertFired', alert: fired })
    expect(beeps).toHaveLength(1)
    await api.invoke('updateSettings', { sounds: false })
    api.emit({ type: 'alertFired', alert: { ...fired, id: 'f2' } })
    expect(beeps).toHaveLength(1)
    await waitFor(() => expect(screen.getAllByTestId('toast')).toHaveLength(2))
  })

  it('makes a short WebAudio tone that stops by itself, resuming a context autoplay suspended', () => {
    const log: string[] = []
    const ctx: BeepContext = {
      currentTime: 10,
      state: 'suspended',
      destination: 'speakers',
      resume: async () => void log.push('resume'),
      createOscillator: () => ({
        type: '',
        frequency: { value: 0 },
        connect: () => log.push('osc->gain'),
        start: (t) => log.push(`start@${t}`),
        stop: (t) => log.push(`stop@${t}`),
      }),
      createGain: () => ({
        gain: { setValueAtTime: () => undefined, exponentialRampToValueAtTime: () => undefined },
        connect: (node) => log.push(`gain->${String(node)}`),
      }),
    }
    let created = 0
    const beep = createAlertSound(() => {
      created++
      return ctx
    })
    beep()
    beep()
    expect(created).toBe(1)
    expect(log.slice(0, 5)).toEqual([
      'resume',
      'osc->gain',
      'gain->speakers',
      'start@10',
      `stop@${10 + BEEP_SECONDS}`,
    ])
    expect(BEEP_SECONDS).toBeLessThanOrEqual(0.3)
    expect(() => createAlertSound(null)()).not.toThrow()
  })
})

describe('watchlist accessibility', () => {
  it('is a table with one row per symbol, each row named by its symbol header', async () => {
    await setup()
    const table = screen.getByRole('table', { name: 'Watchlist' })
    const body = table.querySelector('tbody')!
    const rows = within(body).getAllByRole('row')
    expect(rows.map((r) => r.getAttribute('data-key'))).toEqual(['crypto:BTCUSDT', 'fx:EURUSD'])
    expect(within(rows[0]!).getByRole('rowheader').textContent).toContain('BTCUSDT')
  })

  it('marks the keyboard-selected row with aria-selected', async () => {
    await setup()
    await fireEvent.keyDown(window, { key: 'ArrowDown' })
    await fireEvent.keyDown(window, { key: 'ArrowDown' })
    const selected = document.querySelectorAll('tbody tr[aria-selected="true"]')
    expect([...selected].map((r) => r.getAttribute('data-key'))).toEqual(['fx:EURUSD'])
  })
})
