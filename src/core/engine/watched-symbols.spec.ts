import { describe, expect, it } from 'vitest'
import { WatchedSymbols } from './watched-symbols'

describe('WatchedSymbols', () => {
  it('counts references: a symbol is unwatched only when its last reference goes', () => {
    const w = new WatchedSymbols()
    w.add('crypto:BTCUSDT', 0)
    w.add('crypto:BTCUSDT', 0)
    expect(w.release('crypto:BTCUSDT')).toBe(false)
    expect(w.has('crypto:BTCUSDT')).toBe(true)
    expect(w.release('crypto:BTCUSDT')).toBe(true)
    expect(w.has('crypto:BTCUSDT')).toBe(false)
    expect(w.release('crypto:BTCUSDT')).toBe(false)
    expect(w.size).toBe(0)
  })

  it('lists symbols in the order first watched, a re-watch keeping its place and priority', () => {
    const w = new WatchedSymbols()
    w.add('crypto:BTCUSDT', 1)
    w.add('fx:EURUSD', 2)
    w.add('crypto:BTCUSDT', 5)
    expect(w.ordered()).toEqual([
      { key: 'crypto:BTCUSDT', priority: 1 },
      { key: 'fx:EURUSD', priority: 2 },
    ])
  })

  it('sets priorities, the rest falling back, and says whether anything changed', () => {
    const w = new WatchedSymbols()
    w.add('crypto:BTCUSDT', 0)
    w.add('fx:EURUSD', 3)
    expect(w.setPriorities(new Map([['crypto:BTCUSDT', 3]]), 0)).toBe(true)
    expect(w.ordered().map((e) => e.priority)).toEqual([3, 0])
    expect(w.setPriorities(new Map([['crypto:BTCUSDT', 3]]), 0)).toBe(false)
  })
})
