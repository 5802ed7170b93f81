import { describe, expect, it } from 'vitest'
import { MAX_SYMBOLS_PER_LIST, type Watchlist } from '../../../shared/watchlist'
import { PendingAdds } from './pending-adds.svelte'

const list = (symbols: string[]): Watchlist => ({ id: 'w1', name: 'Main', symbols })

describe('PendingAdds', () => {
  it('shows exactly named symbols at the end of the list at once, canonical, not names or duplicates', () => {
    const adds = new PendingAdds()
    const w = list(['fx:EURUSD'])
    const shown = adds.propose(w, ['crypto:btcusdt', 'gold', 'fx:EURUSD', 'crypto:BTCUSDT'])
    expect(shown).toEqual(['crypto:BTCUSDT'])
    expect(adds.overlay(w).symbols).toEqual(['fx:EURUSD', 'crypto:BTCUSDT'])
    expect(adds.has('w1', 'crypto:BTCUSDT')).toBe(true)
  })

  it('takes a symbol the host did not add away again', () => {
    const adds = new PendingAdds()
    const w = list(['fx:EURUSD'])
    const shown = adds.propose(w, ['crypto:NOTLISTED'])
    adds.settle('w1', shown, [], w)
    expect(adds.overlay(w)).toBe(w)
    expect(adds.has('w1', 'crypto:NOTLISTED')).toBe(false)
  })

  it('takes every shown symbol away when the add failed whole', () => {
    const adds = new PendingAdds()
    const w = list([])
    const shown = adds.propose(w, ['crypto:AUSDT', 'crypto:BUSDT'])
    adds.settle('w1', shown, null, w)
    expect(adds.overlay(w).symbols).toEqual([])
  })

  it('keeps an added symbol until the host list shows it, then holds nothing', () => {
    const adds = new PendingAdds()
    const w = list(['fx:EURUSD'])
    const shown = adds.propose(w, ['crypto:BTCUSDT'])
    // The answer came before the list event.
    adds.settle('w1', shown, ['crypto:BTCUSDT'], w)
    expect(adds.overlay(w).symbols).toEqual(['fx:EURUSD', 'crypto:BTCUSDT'])
    expect(adds.has('w1', 'crypto:BTCUSDT')).toBe(false)
    const next = list(['fx:EURUSD', 'crypto:BTCUSDT'])
    adds.seen([next])
    expect(adds.overlay(next)).toBe(next)
    // Removed elsewhere afterwards: not brought back.
    expect(adds.overlay(list(['fx:EURUSD'])).symbols).toEqual(['fx:EURUSD'])
  })

  it('shows nothing past the cap of a list', () => {
    const adds = new PendingAdds()
    const full = list(Array.from({ length: MAX_SYMBOLS_PER_LIST }, (_, i) => `crypto:Z${i}USDT`))
    expect(adds.propose(full, ['crypto:ONEMORE'])).toEqual([])
    expect(adds.overlay(full)).toBe(full)
  })
})
