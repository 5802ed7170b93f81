/** The alerts panel of an app that does not run the folder's alerts, and of one on another service. */
import { fireEvent, screen, within } from '@testing-library/svelte'
import { tick } from 'svelte'
import { describe, expect, it } from 'vitest'
import type { AlertOwnerView } from '../../../shared/alerts/alert-owner'
import type { Snapshot } from '../../../shared/bridge'
import { alertRule, firedAlert, undeliveredFire } from '../testing/fake-snapshot'
import { renderApp } from '../testing/render-app'

const here = { url: 'https://api.example.com', profile: 'default' }

const standby: AlertOwnerView = {
  state: 'standby',
  holder: { role: '`tickdesk alerts run`', host: 'studio', pid: 4242, since: 1 },
  words:
    'alerts are run by `tickdesk alerts run` (pid 4242 on studio) since 09:30; fires show here as they happen',
  here,
  folder: here,
}

const owed = undeliveredFire()

async function openPanel(snapshot: Partial<Snapshot>): Promise<HTMLElement> {
  await renderApp(snapshot)
  await fireEvent.keyDown(window, { key: 'ArrowDown' })
  await fireEvent.keyDown(window, { key: 'a' })
  return screen.findByTestId('alerts-panel')
}

describe('the alerts panel says who runs the alerts', () => {
  it('standing by: names the owner, lists the undelivered fires with their age, and leaves Retry and Drop to it', async () => {
    const panel = await openPanel({
      alertOwner: standby,
      alertHistory: [firedAlert({ id: 'f9', message: 'EURUSD above 1.1', firedBy: 'runner' })],
      undelivered: [owed],
    })
    expect(within(panel).getByTestId('alert-owner').textContent).toBe(
      'Alerts are run by `tickdesk alerts run` (pid 4242 on studio) since 09:30; fires show here as they happen',
    )
    const list = within(panel).getByTestId('undelivered')
    expect(list.textContent).toMatch(/EURUSD above 1\.1\s+\S+.*webhook:w1: no answer within 5 s/)
    for (const name of ['Retry', 'Drop']) {
      const button = within(list).getByRole('button', { name }) as HTMLButtonElement
      expect(button.disabled, name).toBe(true)
      expect(button.title).toContain('Another process runs the alerts')
    }
  })

  it('running them: Retry and Drop act', async () => {
    const panel = await openPanel({
      alertOwner: { ...standby, state: 'owner', words: 'this process runs the alerts' },
      undelivered: [owed],
    })
    const retry = within(within(panel).getByTestId('undelivered')).getByRole('button', {
      name: 'Retry',
    }) as HTMLButtonElement
    expect(retry.disabled).toBe(false)
  })

  it("marks a rule of another service as not judged here, and leaves this service's alone", async () => {
    const rule = (id: string, service?: { url: string | null; profile: string }) =>
      alertRule({ kind: 'above', price: 1 }, { id, ...(service ? { service } : {}) })
    const panel = await openPanel({
      alertOwner: { ...standby, state: 'owner', words: 'this process runs the alerts' },
      alerts: [rule('mine', here), rule('demo', { url: null, profile: 'default' }), rule('old')],
    })
    const marks = within(panel).getAllByTestId('not-judged')
    expect(marks.map((m) => m.textContent)).toEqual([
      'for the demo simulator: not judged here (this app runs on api.example.com)',
    ])
  })

  it('says a late delivery is late in its toast', async () => {
    const { api } = await renderApp({})
    api.emit({ type: 'alertFired', alert: firedAlert({ message: 'BTC above 1', late: true }) })
    await tick()
    expect(screen.getByTestId('toast').textContent).toContain('Late: BTC above 1')
  })
})
