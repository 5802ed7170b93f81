import { describe, expect, it } from 'vitest'
import type { Watchlist } from '../../../shared/watchlist'
import { keepUnchanged } from './kept-lists'

const big = Array.from({ length: 5000 }, (_, i) => `crypto:ZC${String(i + 1).padStart(5, '0')}`)

describe('keepUnchanged', () => {
  it('keeps the held object of a list that did not change, and takes the one that did', () => {
    const held: Watchlist[] = [
      { id: 'a', name: 'Desk', symbols: big },
      { id: 'b', name: 'Small', symbols: ['fx:EURUSD'] },
    ]
    const next: Watchlist[] = [
      { id: 'a', name: 'Desk', symbols: [...big] },
      { id: 'b', name: 'Small', symbols: ['fx:EURUSD', 'fx:USDJPY'] },
    ]
    const kept = keepUnchanged(held, next)
    expect(kept[0]).toBe(held[0])
    expect(kept[1]).toBe(next[1])
  })

  it('answers the held array itself when nothing changed, and a renamed list as new', () => {
    const held: Watchlist[] = [{ id: 'a', name: 'Desk', symbols: big }]
    expect(keepUnchanged(held, [{ id: 'a', name: 'Desk', symbols: [...big] }])).toBe(held)
    const renamed = keepUnchanged(held, [{ id: 'a', name: 'Desk 2', symbols: big }])
    expect(renamed[0]?.name).toBe('Desk 2')
  })
})
