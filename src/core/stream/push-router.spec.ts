import { describe, expect, it } from 'vitest'
import type { ParsedFrame } from '../push/parsed-frame'
import { newSymbolRef } from '../push/symbol-ref'
import { PushRouter } from './push-router'
import { SubscriptionBook } from './subscription-book'

type TickFrame = Extract<ParsedFrame, { kind: 'tick' }>

describe('PushRouter with a scanned tick’s cached route', () => {
  it('routes a shared symbol again once telling of it replanned the book within the same tick', () => {
    const book = new SubscriptionBook()
    book.setDesired(
      new Map([
        ['crypto', new Set(['BTCUSDT'])],
        ['usdt-futures', new Set(['BTCUSDT'])],
      ]),
    )
    // As the engine does: told a symbol two markets share came untagged, the planner streams it
    // in one market only, and the book is replanned at once (inside the router's call).
    const router = new PushRouter(book, () =>
      book.setDesired(new Map([['usdt-futures', new Set(['BTCUSDT'])]])),
    )
    const ref = newSymbolRef('BTCUSDT')
    const tick: TickFrame = {
      kind: 'tick',
      market: null,
      symbol: 'BTCUSDT',
      fields: {},
      ts: null,
      ref,
    }
    expect(router.tick(tick)).toBeNull()
    expect(router.counters.ambiguous).toBe(1)
    expect(router.tick(tick)).toBe('usdt-futures')
    expect(router.tick(tick)).toBe('usdt-futures')
  })
})
