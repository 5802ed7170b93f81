import { describe, expect, it } from 'vitest'
import type { MarketEngine } from '../core/engine'
import type { BridgeEvent } from '../shared/bridge'
import type { SymbolStatus } from '../shared/quote'
import { EventHub } from './event-hub'
import { connectFeedEvents } from './feed-events'

/** The engine's side of the connection: listeners the test calls, as a re-plan would. */
function engineStub() {
  const statusListeners = new Set<(s: SymbolStatus) => void>()
  const statuses: SymbolStatus[] = []
  const engine = {
    onQuote: () => () => undefined,
    onStatus: () => () => undefined,
    onResume: () => () => undefined,
    onSymbolStatus: (l: (s: SymbolStatus) => void) => {
      statusListeners.add(l)
      return () => statusListeners.delete(l)
    },
    quotes: { drainPatches: () => [] },
    symbolStatuses: () => [...statuses],
  }
  const change = (s: SymbolStatus): void => {
    statuses.push(s)
    for (const l of statusListeners) l(s)
  }
  return { engine: engine as unknown as MarketEngine, change }
}

function connect() {
  const { engine, change } = engineStub()
  const hub = new EventHub()
  const sent: BridgeEvent[] = []
  hub.subscribe((e) => sent.push(e))
  const disconnect = connectFeedEvents(engine, {
    hub,
    alerts: { evaluate: () => undefined, markGap: () => undefined },
    clock: { now: () => 0 } as never,
    quotesChanged: () => undefined,
  })
  const statusEvents = () => sent.filter((e) => e.type === 'symbolStatuses')
  return { change, disconnect, statusEvents }
}

const status = (i: number): SymbolStatus => ({
  key: `crypto:ZC${String(i).padStart(5, '0')}`,
  code: 'OK',
  message: '',
})

describe('symbol statuses to the window', () => {
  it('sends one event with every status for a re-plan that changes 5000 of them', async () => {
    const { change, statusEvents } = connect()
    for (let i = 1; i <= 5000; i++) change(status(i))
    expect(statusEvents()).toHaveLength(0)
    await Promise.resolve()
    expect(statusEvents()).toHaveLength(1)
    const [event] = statusEvents()
    expect(event?.type === 'symbolStatuses' && event.statuses).toHaveLength(5000)
    change(status(5001))
    await Promise.resolve()
    expect(statusEvents()).toHaveLength(2)
  })

  it('sends nothing after the disconnect, even for a change just before it', async () => {
    const { change, disconnect, statusEvents } = connect()
    change(status(1))
    disconnect()
    await Promise.resolve()
    expect(statusEvents()).toHaveLength(0)
  })
})
