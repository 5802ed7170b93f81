import { fireEvent, render, screen, waitFor } from '@testing-library/svelte'
import { describe, expect, it } from 'vitest'
import { baseSnapshot, FakeTickdeskApi } from '../testing/fake-api'
import AlertForm from './AlertForm.svelte'

const lists = [
  { id: 'w1', name: 'Main', symbols: ['crypto:BTCUSDT'] },
  { id: 'w2', name: 'Macro', symbols: ['fx:EURUSD', 'index:SPX'] },
]

describe('AlertForm: an alert on a whole watchlist', () => {
  it('sends one addAlert naming the list, with only the conditions a list takes', async () => {
    const api = new FakeTickdeskApi(baseSnapshot())
    render(AlertForm, { props: { api, lists } })
    await fireEvent.change(screen.getByLabelText('For'), { target: { value: 'list' } })
    expect(screen.queryByLabelText('Symbol')).toBeNull()
    const kinds = [...(screen.getByLabelText('Condition') as HTMLSelectElement).options].map(
      (o) => o.value,
    )
    expect(kinds).toEqual(['dayChangePct', 'movePct', 'spread'])
    await fireEvent.change(screen.getByLabelText('Watchlist'), { target: { value: 'w2' } })
    await fireEvent.input(screen.getByLabelText('Percent'), { target: { value: '3' } })
    await fireEvent.input(screen.getByLabelText('Minutes'), { target: { value: '15' } })
    await fireEvent.click(screen.getByRole('button', { name: 'Create alert' }))
    await waitFor(() => expect(api.callsOf('addAlert')).toHaveLength(1))
    expect(api.callsOf('addAlert')[0]).toMatchObject({
      listId: 'w2',
      condition: { kind: 'movePct', pct: 3, minutes: 15 },
    })
    expect(screen.getByRole('status').textContent).toBe('Alert added for every symbol on Macro')
  })
})

describe('AlertForm: volume above N in M minutes', () => {
  it("says when the symbol's market may carry no volume", async () => {
    const api = new FakeTickdeskApi(baseSnapshot())
    render(AlertForm, { props: { api, initialKey: 'fx:EURUSD' } })
    await fireEvent.change(screen.getByLabelText('Condition'), { target: { value: 'volume' } })
    expect(screen.getByTestId('volume-note').textContent).toMatch(/no volume for fx quotes/)
    await fireEvent.input(screen.getByLabelText('Symbol'), { target: { value: 'crypto:ETHUSDT' } })
    expect(screen.queryByTestId('volume-note')).toBeNull()
    await fireEvent.input(screen.getByLabelText('Volume'), { target: { value: '300' } })
    await fireEvent.click(screen.getByRole('button', { name: 'Create alert' }))
    await waitFor(() => expect(api.callsOf('addAlert')).toHaveLength(1))
    expect(api.callsOf('addAlert')[0]).toMatchObject({
      key: 'crypto:ETHUSDT',
      condition: { kind: 'volume', amount: 300, minutes: 5 },
    })
  })
})

describe('AlertForm: spread above X', () => {
  it('sends a spread rule in bps of the mid, or in price when chosen', async () => {
    const api = new FakeTickdeskApi(baseSnapshot())
    render(AlertForm, { props: { api, initialKey: 'crypto:ETHUSDT' } })
    await fireEvent.change(screen.getByLabelText('Condition'), { target: { value: 'spread' } })
    expect(screen.getByTestId('spread-note').textContent).toMatch(/bid and an ask/)
    await fireEvent.input(screen.getByLabelText('Spread'), { target: { value: '12.5' } })
    await fireEvent.click(screen.getByRole('button', { name: 'Create alert' }))
    await waitFor(() => expect(api.callsOf('addAlert')).toHaveLength(1))
    expect(api.callsOf('addAlert')[0]).toMatchObject({
      key: 'crypto:ETHUSDT',
      condition: { kind: 'spread', above: 12.5, unit: 'bps' },
    })
    await fireEvent.change(screen.getByLabelText('Condition'), { target: { value: 'spread' } })
    await fireEvent.change(screen.getByLabelText('Measured in'), { target: { value: 'price' } })
    await fireEvent.input(screen.getByLabelText('Spread'), { target: { value: '0.5' } })
    await fireEvent.click(screen.getByRole('button', { name: 'Create alert' }))
    await waitFor(() => expect(api.callsOf('addAlert')).toHaveLength(2))
    expect(api.callsOf('addAlert')[1]).toMatchObject({
      condition: { kind: 'spread', above: 0.5, unit: 'price' },
    })
  })

  it('on a whole list, offers the spread in bps only and sends it with the list', async () => {
    const api = new FakeTickdeskApi(baseSnapshot())
    render(AlertForm, { props: { api, lists } })
    await fireEvent.change(screen.getByLabelText('For'), { target: { value: 'list' } })
    await fireEvent.change(screen.getByLabelText('Condition'), { target: { value: 'spread' } })
    const units = [...(screen.getByLabelText('Measured in') as HTMLSelectElement).options]
    expect(units.map((o) => o.value)).toEqual(['bps'])
    await fireEvent.change(screen.getByLabelText('Watchlist'), { target: { value: 'w2' } })
    await fireEvent.input(screen.getByLabelText('Spread'), { target: { value: '15' } })
    await fireEvent.click(screen.getByRole('button', { name: 'Create alert' }))
    await waitFor(() => expect(api.callsOf('addAlert')).toHaveLength(1))
    expect(api.callsOf('addAlert')[0]).toMatchObject({
      listId: 'w2',
      condition: { kind: 'spread', above: 15, unit: 'bps' },
    })
  })
})
