import { describe, expect, it } from 'vitest'
import type { MarketEngine } from '../../core/engine/engine'
import type { BridgeEvent } from '../../shared/bridge'
import type { SymbolStatus } from '../../shared/quote'
import { EventHub } from '../event-hub'
import { connectFeedEvents, HOLD_FROM_KEYS } from './feed-events'
import { MIN_GAP_MS } from './quote-batcher'
import { steppedTiming } from '../testing/stepped-timing'

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
    alerts: { evaluate: () => undefined, markGap: () => undefined, attachBars: () => undefined },
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

describe('quote batches and the stream between them', () => {
  /** An engine whose ticks, batches, holds and releases the test steps and reads in `log`. */
  function heldFeed() {
    const { timing, runSoon, advance } = steppedTiming()
    const quoteListeners = new Set<(q: unknown) => void>()
    let pending: string[] = []
    const seen = { drains: 0 }
    const log: string[] = []
    const engine = {
      onQuote: (l: (q: unknown) => void) => {
        quoteListeners.add(l)
        return () => quoteListeners.delete(l)
      },
      onStatus: () => () => undefined,
      onResume: () => () => undefined,
      onSymbolStatus: () => () => undefined,
      quotes: {
        drainFrame: () => {
          seen.drains++
          const keys = pending
          pending = []
          return { keys, masks: keys.map(() => 1), values: keys.map(() => 1) }
        },
      },
      holdStreamReads: () => {
        log.push('hold')
        return () => log.push('release')
      },
    } as unknown as MarketEngine
    const hub = new EventHub()
    hub.subscribe((e) => e.type === 'quotes' && log.push(`batch ${e.frame.keys.join(',')}`))
    connectFeedEvents(engine, {
      batchTiming: timing,
      hub,
      alerts: { evaluate: () => undefined, markGap: () => undefined, attachBars: () => undefined },
      clock: { now: () => 0 } as never,
      quotesChanged: () => undefined,
    })
    const tick = (...keys: string[]): void => {
      for (const key of keys) {
        pending.push(key)
        for (const l of quoteListeners) l({ key })
      }
    }
    return { tick, log, seen, runSoon, advance }
  }

  it('holds the stream after a batch and, at the end of the gap, reads it and sends what came in that same turn', () => {
    const { tick, log, seen, runSoon, advance } = heldFeed()
    expect(HOLD_FROM_KEYS).toBe(2)
    tick('A', 'B')
    runSoon()
    expect(log).toEqual(['batch A,B', 'hold'])
    advance(MIN_GAP_MS - 1)
    expect(log).toEqual(['batch A,B', 'hold'])
    advance(1)
    expect(log).toEqual(['batch A,B', 'hold', 'release'])
    tick('C', 'D') // read once released
    runSoon()
    expect(log).toEqual(['batch A,B', 'hold', 'release', 'batch C,D', 'hold'])
    // What the socket brings at the gap's end goes out in that same turn of the loop: the
    // release itself schedules the batch (a timer may fire before the batcher's gap is over).
    // Here nothing came: one look, nothing sent, nothing held.
    const before = seen.drains
    advance(MIN_GAP_MS)
    runSoon()
    expect(seen.drains).toBe(before + 1)
    expect(log).toEqual(['batch A,B', 'hold', 'release', 'batch C,D', 'hold', 'release'])
  })

  it('holds nothing after a batch of one symbol (a sparse feed), and still keeps the gap', () => {
    const { tick, log, seen, runSoon, advance } = heldFeed()
    tick('A')
    runSoon()
    expect(log).toEqual(['batch A'])
    // No hold, so no timer and no second look at the end of the gap.
    const before = seen.drains
    advance(MIN_GAP_MS)
    runSoon()
    expect(seen.drains).toBe(before)
    // A tick read inside the gap waits for its end, as it would have waited for the release.
    advance(1)
    tick('B') // at 9 ms, after the gap: sent at once
    runSoon()
    expect(log).toEqual(['batch A', 'batch B'])
    advance(2)
    tick('C') // at 11 ms, 2 ms into the next gap: sent at its end, 17 ms
    runSoon()
    advance(MIN_GAP_MS - 3)
    runSoon()
    expect(log).toEqual(['batch A', 'batch B'])
    advance(1)
    runSoon()
    expect(log).toEqual(['batch A', 'batch B', 'batch C'])
  })
})
