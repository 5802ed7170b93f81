import { describe, expect, it } from 'vitest'
import { FakeClock } from '../clock'
import { QuoteStore, STREAM_GAP_MS } from './quote-store'
import type { QuoteUpdate } from './quote-fields'
import { newSymbolRef } from '../push/symbol-ref'
import { blankQuote, type Quote } from '../../shared/quote'

function tick(fields: QuoteUpdate['fields'], extra: Partial<QuoteUpdate> = {}): QuoteUpdate {
  return { market: 'crypto', symbol: 'BTCUSDT', fields, ts: null, source: 'stream', ...extra }
}

function cachedQuote(over: Partial<Quote> = {}): Quote {
  const figures = { last: 3000, change: 10, changePercent: 0.33, prevClose: 2990 }
  return { ...blankQuote('crypto', 'ETHUSDT', 1, 'stream'), ...figures, ...over }
}

describe('QuoteStore', () => {
  it("trusts a symbol handle's entry only while it is this store's, live and the same symbol", () => {
    const store = new QuoteStore(new FakeClock())
    const other = new QuoteStore(new FakeClock())
    const ref = newSymbolRef('BTCUSDT')
    const first = store.applyEntry(tick({ last: 1 }, { ref }))
    expect(ref.entry).toBe(first)
    expect(store.applyEntry(tick({ last: 2 }, { ref }))).toBe(first)
    // Another store (another engine in this process) looks its own entry up.
    const theirs = other.applyEntry(tick({ last: 3 }, { ref }))
    expect(theirs).not.toBe(first)
    expect(store.applyEntry(tick({ last: 4 }, { ref })).quote.last).toBe(4)
    expect(other.get('crypto:BTCUSDT')?.last).toBe(3)
    // A removed entry is never written again: the symbol gets a fresh one.
    store.remove('crypto:BTCUSDT')
    const again = store.applyEntry(tick({ last: 5 }, { ref }))
    expect(again).not.toBe(first)
    expect(store.get('crypto:BTCUSDT')).toBe(again.quote)
    // A handle pointing at another symbol's entry is not taken for this one.
    expect(store.applyEntry(tick({ last: 6 }, { symbol: 'ETHUSDT', ref })).quote.symbol).toBe(
      'ETHUSDT',
    )
    expect(store.get('crypto:BTCUSDT')?.last).toBe(5)
  })

  it('merges partial updates, keeping fields the update did not carry', () => {
    const store = new QuoteStore(new FakeClock())
    store.apply(tick({ last: 100, bid: 99, ask: 101, volume: 5 }))
    const q = store.apply(tick({ last: 102 }))
    expect(q).toMatchObject({ key: 'crypto:BTCUSDT', last: 102, bid: 99, ask: 101, volume: 5 })
    expect(q.open).toBeNull()
  })

  it('uses the service timestamp when given, else the receive time', () => {
    const clock = new FakeClock(1_000_000)
    const store = new QuoteStore(clock)
    expect(store.apply(tick({ last: 1 }, { ts: 999 })).ts).toBe(999)
    clock.advance(50)
    const q = store.apply(tick({ last: 2 }))
    expect(q.ts).toBe(1_000_050)
    expect(q.receivedAt).toBe(1_000_050)
  })

  it('computes change and changePercent from prevClose when the update lacks them', () => {
    const store = new QuoteStore(new FakeClock())
    store.apply(tick({ prevClose: 200 }))
    const q = store.apply(tick({ last: 210 }))
    expect(q.change).toBe(10)
    expect(q.changePercent).toBeCloseTo(5, 10)
  })

  it("keeps the service's change and changePercent when the update carries them", () => {
    const store = new QuoteStore(new FakeClock())
    const q = store.apply(tick({ last: 210, prevClose: 200, change: 9.5, changePercent: 4.75 }))
    expect(q.change).toBe(9.5)
    expect(q.changePercent).toBe(4.75)
  })

  it('recomputes change when a later tick moves only the price', () => {
    const store = new QuoteStore(new FakeClock())
    store.apply(tick({ last: 210, prevClose: 200, change: 10, changePercent: 5 }))
    const q = store.apply(tick({ last: 190 }))
    expect(q.change).toBe(-10)
    expect(q.changePercent).toBeCloseTo(-5, 10)
  })

  it("keeps the service's change when an update moves neither last nor prevClose", () => {
    const store = new QuoteStore(new FakeClock())
    // e.g. a 24h change from a crypto ticker, not measured against prevClose
    store.apply(tick({ last: 210, prevClose: 200, change: 7, changePercent: 3.4 }))
    const q = store.apply(tick({ bid: 209.5, ask: 210.5 }))
    expect(q.change).toBe(7)
    expect(q.changePercent).toBe(3.4)
  })

  it("follows the service's new day: a push whose change implies another previous close moves it", () => {
    const store = new QuoteStore(new FakeClock())
    store.apply(
      tick({ last: 210, prevClose: 200, change: 10, changePercent: 5 }, { source: 'poll' }),
    )
    // Midnight: the service measures from 210 now; the push carries change but no prevClose.
    let q = store.apply(tick({ last: 211, change: 1, changePercent: 0.4762 }))
    expect(q.prevClose).toBe(210)
    // A later tick without change is derived from the new day's close, not the old one.
    q = store.apply(tick({ last: 212 }))
    expect(q.change).toBe(2)
    expect(q.changePercent).toBeCloseTo(0.952, 3)
    // Float noise of last - change is not kept (84386.5, not 84386.49999999999).
    q = store.apply(tick({ last: 85139.23, change: 752.73 }))
    expect(q.prevClose).toBe(84386.5)
    // From changePercent alone when the push has no change.
    q = store.apply(tick({ last: 90000, changePercent: 20 }))
    expect(q.prevClose).toBe(75000)
  })

  it('keeps the held previous close when a push disagrees with it only by rounding', () => {
    const store = new QuoteStore(new FakeClock())
    store.apply(tick({ last: 3000, prevClose: 2990.004, change: 9.996, changePercent: 0.3343 }))
    // change rounded to the cent and changePercent to two decimals: both within rounding.
    expect(store.apply(tick({ last: 3001, change: 11 })).prevClose).toBe(2990.004)
    expect(store.apply(tick({ last: 3002, changePercent: 0.4 })).prevClose).toBe(2990.004)
    // No previous close held: nothing to follow, nothing invented.
    const other = store.apply(tick({ last: 5, change: 1 }, { symbol: 'ETHUSDT' }))
    expect(other.prevClose).toBeNull()
  })

  it('leaves change null when prevClose is unknown, and changePercent null when prevClose is 0', () => {
    const store = new QuoteStore(new FakeClock())
    expect(store.apply(tick({ last: 5 })).change).toBeNull()
    const q = store.apply(tick({ last: 5, prevClose: 0 }))
    expect(q.change).toBe(5)
    expect(q.changePercent).toBeNull()
  })

  it('marks quotes stale when the feed goes offline and fresh again on the next update', () => {
    const store = new QuoteStore(new FakeClock())
    store.apply(tick({ last: 1 }))
    store.apply(tick({ last: 2 }, { symbol: 'ETHUSDT' }))
    store.markStale('all')
    expect(store.all().every((q) => q.stale)).toBe(true)
    store.apply(tick({ last: 3 }))
    expect(store.get('crypto:BTCUSDT')?.stale).toBe(false)
    expect(store.get('crypto:ETHUSDT')?.stale).toBe(true)
  })

  it('marks only the named keys stale and ignores unknown keys', () => {
    const store = new QuoteStore(new FakeClock())
    store.apply(tick({ last: 1 }))
    store.apply(tick({ last: 2 }, { symbol: 'ETHUSDT' }))
    store.markStale(['crypto:ETHUSDT', 'fx:NOPE'])
    expect(store.get('crypto:BTCUSDT')?.stale).toBe(false)
    expect(store.get('crypto:ETHUSDT')?.stale).toBe(true)
  })

  it('seeds cached quotes as stale with source cache, without overwriting live ones', () => {
    const store = new QuoteStore(new FakeClock())
    store.apply(tick({ last: 65_000 }))
    store.seed([cachedQuote(), cachedQuote({ key: 'crypto:BTCUSDT', symbol: 'BTCUSDT', last: 1 })])
    expect(store.get('crypto:ETHUSDT')).toMatchObject({ last: 3000, source: 'cache', stale: true })
    expect(store.get('crypto:BTCUSDT')).toMatchObject({ last: 65_000, source: 'stream' })
    const fresh = store.apply(tick({ last: 3001 }, { symbol: 'ETHUSDT', source: 'poll' }))
    expect(fresh).toMatchObject({ last: 3001, source: 'poll', stale: false })
  })

  it('returns copies from all(), so callers cannot corrupt the store', () => {
    const store = new QuoteStore(new FakeClock())
    store.apply(tick({ last: 1 }))
    const [copy] = store.all()
    if (copy) copy.last = 999
    expect(store.get('crypto:BTCUSDT')?.last).toBe(1)
  })

  it('keeps markets apart for the same symbol', () => {
    const store = new QuoteStore(new FakeClock())
    store.apply(tick({ last: 1 }))
    store.apply(tick({ last: 2 }, { market: 'usdt-futures' }))
    expect(store.get('crypto:BTCUSDT')?.last).toBe(1)
    expect(store.get('usdt-futures:BTCUSDT')?.last).toBe(2)
  })

  it('keeps markets apart when updates alternate between markets and come back', () => {
    const store = new QuoteStore(new FakeClock())
    for (const [market, last] of [
      ['crypto', 1],
      ['fx', 2],
      ['crypto', 3],
      ['usdt-futures', 4],
      ['fx', 5],
    ] as const) {
      store.apply(tick({ last }, { market }))
    }
    store.remove('fx:BTCUSDT')
    store.apply(tick({ bid: 6 }, { market: 'fx' }))
    expect(store.get('crypto:BTCUSDT')?.last).toBe(3)
    expect(store.get('usdt-futures:BTCUSDT')?.last).toBe(4)
    expect(store.get('fx:BTCUSDT')).toMatchObject({ last: null, bid: 6 })
  })

  it('stamps receivedAt with the frame arrival time the update carries, not a later clock read', () => {
    const clock = new FakeClock(1_000_000)
    const store = new QuoteStore(clock)
    clock.advance(70)
    const q = store.apply(tick({ last: 1 }, { receivedAt: 1_000_020 }))
    expect(q.receivedAt).toBe(1_000_020)
    expect(q.ts).toBe(1_000_020)
  })

  it('merges every quote field an update carries, each into its own place', () => {
    const store = new QuoteStore(new FakeClock())
    const all = {
      last: 1,
      change: 2,
      changePercent: 3,
      open: 4,
      high: 5,
      low: 6,
      prevClose: 7,
      volume: 8,
      quoteVolume: 9,
      bid: 10,
      ask: 11,
      bidSize: 12,
      askSize: 13,
      trades: 14,
    }
    expect(store.apply(tick(all))).toMatchObject(all)
    store.drainPatches()
    const bumped = Object.fromEntries(Object.entries(all).map(([k, v]) => [k, v + 100]))
    store.apply(tick(bumped))
    const [patch] = store.drainPatches()
    expect(patch).toMatchObject(bumped)
  })
})

describe('QuoteStore: the age of the price, not of the frame', () => {
  it('leaves the price’s time, source and stale flag where they were on a frame that moves only bid and ask', () => {
    const clock = new FakeClock(1_000)
    const store = new QuoteStore(clock)
    store.apply(tick({ last: 100, bid: 99, ask: 101 }, { source: 'poll', ts: 900 }))
    store.markStale('all')
    clock.advance(5_000)
    const q = store.apply(tick({ bid: 99.5, ask: 100.5 }, { ts: 5_500 }))
    expect(q).toMatchObject({ bid: 99.5, ask: 100.5, last: 100, ts: 900, receivedAt: 1_000 })
    expect(q).toMatchObject({ source: 'poll', stale: true })
  })

  it('moves the price’s time when a push confirms the same last', () => {
    const clock = new FakeClock(1_000)
    const store = new QuoteStore(clock)
    store.apply(tick({ last: 100 }, { ts: 900 }))
    clock.advance(3_000)
    const q = store.apply(tick({ last: 100 }, { ts: 3_900 }))
    expect(q).toMatchObject({ ts: 3_900, receivedAt: 4_000, source: 'stream' })
  })

  it('prices a quote the service sends without a last by its bid and ask', () => {
    const clock = new FakeClock(1_000)
    const store = new QuoteStore(clock)
    store.apply(tick({ bid: 1.0841, ask: 1.0843 }, { market: 'fx', symbol: 'EURUSD' }))
    clock.advance(2_000)
    const q = store.apply(tick({ bid: 1.0842 }, { market: 'fx', symbol: 'EURUSD' }))
    expect(q).toMatchObject({ last: 1.08425, bid: 1.0842, receivedAt: 3_000, lastIsMid: true })
  })
})

describe('QuoteStore: a price that is the mid of bid and ask', () => {
  const fx = { market: 'fx', symbol: 'EURUSD' } as const

  it('says so in the quote and in the bridge frame, and sends the mid as the last', () => {
    const store = new QuoteStore(new FakeClock(1_000))
    store.apply(tick({ bid: 1.0841, ask: 1.0843 }, fx))
    expect(store.get('fx:EURUSD')).toMatchObject({ last: 1.0842, lastIsMid: true })
    expect(store.drainPatches()[0]).toMatchObject({ last: 1.0842, lastIsMid: true })
    store.apply(tick({ ask: 1.0845 }, fx))
    // Only what moved: the mid, the ask; the flag is not sent again.
    expect(store.drainPatches()).toEqual([{ key: 'fx:EURUSD', last: 1.0843, ask: 1.0845 }])
  })

  it('waits for both sides: a bid alone is no price', () => {
    const store = new QuoteStore(new FakeClock(1_000))
    expect(store.apply(tick({ bid: 1.0841 }, fx))).toMatchObject({ last: null, lastIsMid: false })
  })

  it('keeps a traded last: bid and ask moving beside it make no mid', () => {
    const store = new QuoteStore(new FakeClock(1_000))
    store.apply(tick({ last: 100, bid: 99, ask: 101 }))
    const q = store.apply(tick({ bid: 98, ask: 104 }))
    expect(q).toMatchObject({ last: 100, lastIsMid: false })
  })

  it('drops the mark when the service sends a last, and the frame says so', () => {
    const store = new QuoteStore(new FakeClock(1_000))
    store.apply(tick({ bid: 1.0841, ask: 1.0843 }, fx))
    store.drainPatches()
    expect(store.apply(tick({ last: 1.0844 }, fx))).toMatchObject({ lastIsMid: false })
    expect(store.drainPatches()[0]).toMatchObject({ last: 1.0844, lastIsMid: false })
    // From then on bid and ask leave the traded last alone.
    expect(store.apply(tick({ bid: 1.09, ask: 1.1 }, fx))).toMatchObject({ last: 1.0844 })
  })

  it('keeps pricing a cached mid by bid and ask', () => {
    const store = new QuoteStore(new FakeClock(1_000))
    store.seed([
      cachedQuote({ key: 'fx:EURUSD', market: 'fx', symbol: 'EURUSD', last: 1.0842 }),
      cachedQuote({
        ...{ key: 'fx:GBPUSD', market: 'fx', symbol: 'GBPUSD', last: 1.25, lastIsMid: true },
      }),
    ])
    expect(store.get('fx:EURUSD')?.lastIsMid).toBe(false)
    const q = store.apply(tick({ bid: 1.26, ask: 1.262 }, { market: 'fx', symbol: 'GBPUSD' }))
    expect(q).toMatchObject({ last: 1.261, lastIsMid: true, stale: false })
  })

  it("notes on the slot when a push moved the stream's own last price, not when a poll did", () => {
    const clock = new FakeClock(1_000)
    const store = new QuoteStore(clock)
    const first = store.applyEntry(tick({ last: 100 }))
    expect(first.slot.streamMovedAt).toBe(1_000)
    clock.advance(1_000)
    store.applyEntry(tick({ last: 100 }))
    clock.advance(1_000)
    // A frozen stream between moving polls: the poll moves the shown price, the stream's stays.
    store.applyEntry(tick({ last: 101 }, { source: 'poll' }))
    expect(store.applyEntry(tick({ last: 100 })).slot.streamMovedAt).toBe(1_000)
    clock.advance(1_000)
    expect(store.applyEntry(tick({ last: 101 })).slot.streamMovedAt).toBe(4_000)
  })

  it('restarts the still-price clock after a gap in pushes: a stall is silence, not a frozen price', () => {
    const clock = new FakeClock(1_000)
    const store = new QuoteStore(clock)
    store.applyEntry(tick({ last: 100 }))
    clock.advance(STREAM_GAP_MS - 1)
    expect(store.applyEntry(tick({ last: 100 })).slot.streamMovedAt).toBe(1_000)
    clock.advance(STREAM_GAP_MS)
    const back = clock.now()
    expect(store.applyEntry(tick({ last: 100 })).slot.streamMovedAt).toBe(back)
  })
})
