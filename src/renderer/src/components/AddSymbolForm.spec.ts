import { fireEvent, render, screen } from '@testing-library/svelte'
import { tick } from 'svelte'
import { describe, expect, it } from 'vitest'
import type { CommandName, TickdeskApi } from '../../../shared/bridge'
import { BridgeError } from '../bridge/bridge-error'
import { parseSymbolEntries } from '../lib/symbol-entries'
import AddSymbolForm from './AddSymbolForm.svelte'

/**
 * The invariant the field keeps (issue 11, item 5): submitting takes the field's whole text and
 * empties the field at once; no reply to an add, late or failed, ever writes over what the
 * trader typed meanwhile. Replies here are held until the test releases them, as under load.
 */
interface Held {
  key: string
  resolve: () => void
  reject: (e: Error) => void
}

function heldApi(): { api: TickdeskApi; held: Held[] } {
  const held: Held[] = []
  const api: TickdeskApi = {
    host: 'web',
    subscribe: () => () => undefined,
    invoke: ((name: CommandName, params: { key?: string }): Promise<unknown> => {
      if (name === 'suggestSymbols') return Promise.resolve([])
      return new Promise<unknown>((resolve, reject) =>
        held.push({ key: params.key ?? '', resolve: () => resolve(null), reject }),
      )
    }) as unknown as TickdeskApi['invoke'],
  }
  return { api, held }
}

function field(): HTMLInputElement {
  return screen.getByLabelText('Add symbol') as HTMLInputElement
}

async function typeAndSubmit(text: string): Promise<void> {
  await fireEvent.input(field(), { target: { value: text } })
  await fireEvent.submit(field().form as HTMLFormElement)
}

describe('AddSymbolForm under load (replies arrive late)', () => {
  it('keeps what is typed after a submit when the earlier reply arrives', async () => {
    const { api, held } = heldApi()
    render(AddSymbolForm, { props: { api, watchlistId: 'w1', existing: [] } })
    await typeAndSubmit('crypto:AAAUSDT')
    expect(field().value).toBe('')
    await fireEvent.input(field(), { target: { value: 'crypto:BB' } })
    held[0]?.resolve()
    await tick()
    await Promise.resolve()
    expect(field().value).toBe('crypto:BB')
    await typeAndSubmit('crypto:BBBUSDT')
    expect(held.map((h) => h.key)).toEqual(['crypto:AAAUSDT', 'crypto:BBBUSDT'])
  })

  it('sends every symbol typed ahead, however many replies are outstanding', async () => {
    const { api, held } = heldApi()
    render(AddSymbolForm, { props: { api, watchlistId: 'w1', existing: [] } })
    const keys = Array.from({ length: 50 }, (_, i) => `crypto:S${i}USDT`)
    for (const k of keys) await typeAndSubmit(k)
    expect(held.map((h) => h.key)).toEqual(keys)
    for (const h of held) h.resolve()
    await tick()
    expect(field().value).toBe('')
  })

  it('adds each symbol of a pasted list, in order, and keeps the entries that are not symbols', async () => {
    const { api, held } = heldApi()
    render(AddSymbolForm, { props: { api, watchlistId: 'w1', existing: ['fx:EURUSD'] } })
    await typeAndSubmit('crypto:btcusdt, fx:USDJPY;nonsense  hk:00700 fx:EURUSD crypto:BTCUSDT')
    expect(held.map((h) => h.key)).toEqual(['crypto:BTCUSDT', 'fx:USDJPY', 'hk:00700'])
    expect(field().value).toBe('nonsense')
    expect(screen.getByRole('alert').textContent).toContain('fx:EURUSD is already')
  })

  it('names a symbol the host refused, and puts it back only into an empty field', async () => {
    const { api, held } = heldApi()
    render(AddSymbolForm, { props: { api, watchlistId: 'w1', existing: [] } })
    await typeAndSubmit('futures:ES1!')
    await typeAndSubmit('crypto:ETHUSDT')
    await fireEvent.input(field(), { target: { value: 'fx:GB' } })
    held[0]?.reject(new BridgeError('MARKET_NOT_ENABLED', 'not on your plan'))
    await tick()
    await Promise.resolve()
    await tick()
    expect(screen.getByRole('alert').textContent).toContain('futures:ES1!')
    expect(field().value).toBe('fx:GB')
    await fireEvent.input(field(), { target: { value: '' } })
    held[1]?.reject(new BridgeError('NETWORK', 'down'))
    await tick()
    await Promise.resolve()
    await tick()
    expect(field().value).toBe('crypto:ETHUSDT')
  })
})

describe('parseSymbolEntries', () => {
  it('splits on spaces, commas, semicolons and new lines, canonical and once each', () => {
    expect(parseSymbolEntries(' crypto:btcusdt,,crypto:BTCUSDT\tfx:eurusd ; x ')).toEqual({
      keys: ['crypto:BTCUSDT', 'fx:EURUSD'],
      invalid: ['x'],
    })
  })
})
