/** The main window's alerts panel: the form, waiting rules, webhooks, undelivered fires, toasts. */
import { fireEvent, screen, waitFor, within } from '@testing-library/svelte'
import { tick } from 'svelte'
import { describe, expect, it } from 'vitest'
import { alertRule, firedAlert, undeliveredFire } from './testing/fake-snapshot'
import { renderApp, type Rendered } from './testing/render-app'
import type { Snapshot } from '../../shared/bridge'

async function setup(snapshot: Partial<Snapshot> = {}, reducedMotion = false): Promise<Rendered> {
  return renderApp(snapshot, { reducedMotion })
}

describe('alerts', () => {
  it('sends the right addAlert params from the panel form, prefilled by "a" on a row', async () => {
    const { api } = await setup()
    await fireEvent.keyDown(window, { key: 'ArrowDown' })
    await fireEvent.keyDown(window, { key: 'a' })
    const panel = await screen.findByTestId('alerts-panel')
    await waitFor(() =>
      expect((within(panel).getByLabelText('Symbol') as HTMLInputElement).value).toBe(
        'crypto:BTCUSDT',
      ),
    )
    await fireEvent.change(within(panel).getByLabelText('Condition'), {
      target: { value: 'crosses' },
    })
    await fireEvent.input(within(panel).getByLabelText('Price'), { target: { value: '65000' } })
    await fireEvent.change(within(panel).getByLabelText('Repeat'), { target: { value: 'rearm' } })
    await fireEvent.click(within(panel).getByRole('button', { name: 'Create alert' }))
    await waitFor(() => expect(api.callsOf('addAlert')).toHaveLength(1))
    expect(api.callsOf('addAlert')[0]).toEqual({
      key: 'crypto:BTCUSDT',
      condition: { kind: 'crosses', price: 65000 },
      repeat: 'rearm',
      cooldownSec: 60,
      note: '',
    })
    await waitFor(() => expect(within(panel).getByTestId('alert-state').textContent).toBe('armed'))
  })

  it('says a moving-average alert waits for its bars instead of looking armed, until they come', async () => {
    const rule = alertRule(
      { kind: 'maCross', ma: 'ema', period: 20, interval: '15m', direction: 'any' },
      { id: 'ma1' },
    )
    const waiting = {
      ruleId: 'ma1',
      status: 'armed',
      lastFiredAt: null,
      lastPrice: 100,
      lastSeenAt: 1,
      waitingBars: { have: 7, need: 20 },
    } as const
    const { api } = await setup({ alerts: [rule], alertStates: [waiting] })
    await fireEvent.keyDown(window, { key: 'ArrowDown' })
    await fireEvent.keyDown(window, { key: 'a' })
    const state = within(await screen.findByTestId('alerts-panel')).getByTestId('alert-state')
    expect(state.textContent).toBe('waiting for bars (7 of 20)')
    api.emit({
      type: 'alerts',
      alerts: [rule],
      alertStates: [{ ...waiting, waitingBars: null }],
      alertHistory: [],
      webhooks: [],
    })
    await waitFor(() => expect(state.textContent).toBe('armed'))
  })

  it('shows each webhook destination by kind and host, from the view the bridge carries', async () => {
    const { api } = await setup()
    await fireEvent.keyDown(window, { key: 'ArrowDown' })
    await fireEvent.keyDown(window, { key: 'a' })
    api.emit({
      type: 'alerts',
      alerts: [],
      alertStates: [],
      alertHistory: [],
      webhooks: [
        {
          id: 'w1',
          host: 'hooks.slack.com',
          kind: 'slack',
          failures: 0,
          lastError: null,
          lastDeliveredAt: null,
          signed: false,
        },
        {
          id: 'w2',
          host: 'ntfy.sh',
          kind: 'ntfy',
          failures: 2,
          lastError: 'HTTP 500',
          lastDeliveredAt: null,
          signed: true,
        },
      ],
    })
    const list = await screen.findByTestId('webhooks')
    const rows = within(list)
      .getAllByRole('listitem')
      .map((li) => li.textContent?.replace(/\s+/g, ' ').trim())
    expect(rows[0]).toMatch(/^hooks\.slack\.com slack/)
    expect(rows[1]).toMatch(/^ntfy\.sh ntfy .*HTTP 500/)
  })

  it('lists a fire a webhook gave up on, and Drop keeps a line for it in the history', async () => {
    const fired = firedAlert({
      id: 'f9',
      message: 'EURUSD above 1.1',
      price: 1.1,
      firedBy: 'runner',
    })
    const { api } = await setup({
      alertHistory: [fired],
      undelivered: [undeliveredFire()],
    })
    await fireEvent.keyDown(window, { key: 'ArrowDown' })
    await fireEvent.keyDown(window, { key: 'a' })
    const list = await screen.findByTestId('undelivered')
    expect(list.textContent).toContain('webhook:w1: no answer within 5 s')
    await fireEvent.click(within(list).getByRole('button', { name: 'Drop' }))
    await waitFor(() => expect(screen.queryByTestId('undelivered')).toBeNull())
    expect(api.calls.map((c) => c.name)).toContain('dropUndelivered')
    const panel = await screen.findByTestId('alerts-panel')
    expect(panel.textContent).toContain('not delivered to webhook:w1 (dropped)')
  })

  it('shows a toast when an alert fires, marked for status readers', async () => {
    const { api } = await setup()
    api.emit({
      type: 'alertFired',
      alert: firedAlert({ message: 'EURUSD above 1.1', price: 1.1 }),
    })
    await tick()
    const toast = screen.getByTestId('toast')
    expect(toast.textContent).toContain('EURUSD above 1.1')
    expect(toast.closest('[role="status"]')?.getAttribute('aria-live')).toBe('polite')
  })
})
