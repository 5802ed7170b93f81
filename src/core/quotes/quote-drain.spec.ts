import { describe, expect, it } from 'vitest'
import { FakeClock } from '../clock'
import { QuoteStore } from './quote-store'
import type { QuoteUpdate } from './quote-fields'
import { QUOTE_FIGURES } from '../../shared/quote'
import { decodeQuoteFrame, FRAME_FIELDS, isQuoteFrame } from '../../shared/quote-frame'

function tick(fields: QuoteUpdate['fields'], extra: Partial<QuoteUpdate> = {}): QuoteUpdate {
  return { market: 'crypto', symbol: 'BTCUSDT', fields, ts: null, source: 'stream', ...extra }
}

/** What the store drains for the bridge: patches of what changed, written into one frame. */
describe('QuoteStore draining', () => {
  it('drains every figure under its own name', () => {
    const store = new QuoteStore(new FakeClock())
    const fields = Object.fromEntries(QUOTE_FIGURES.map((f, i) => [f, 1000 + i]))
    store.apply(tick(fields, { ts: 5 }))
    const [patch] = store.drainPatches()
    for (const f of QUOTE_FIGURES) expect(patch?.[f], f).toBe(fields[f])
  })

  it('sends every field for a symbol the first time it appears', () => {
    const store = new QuoteStore(new FakeClock())
    store.apply(tick({ last: 1 }))
    store.apply(tick({ bid: 0.5 }))
    const [patch] = store.drainPatches()
    expect(Object.keys(patch ?? {}).sort()).toEqual(['key', ...FRAME_FIELDS].sort())
    expect(patch).toMatchObject({ key: 'crypto:BTCUSDT', last: 1, bid: 0.5, ask: null })
    expect(patch).toMatchObject({ source: 'stream', stale: false })
  })

  it('drains straight into one bridge frame: keys, masks of FRAME_FIELDS, values in order', () => {
    const clock = new FakeClock()
    const store = new QuoteStore(clock)
    store.apply(tick({ last: 1 }))
    store.apply(tick({ last: 1 }, { symbol: 'ETHUSDT' }))
    store.drainFrame()
    store.apply(tick({ last: 2, bid: 1.5 }))
    store.markStale(['crypto:ETHUSDT'])
    const frame = store.drainFrame()
    expect(isQuoteFrame(frame)).toBe(true)
    expect(frame.keys).toEqual(['crypto:BTCUSDT', 'crypto:ETHUSDT'])
    const bit = (f: (typeof FRAME_FIELDS)[number]): number => 1 << FRAME_FIELDS.indexOf(f)
    expect(frame.masks).toEqual([bit('last') | bit('bid'), bit('stale')])
    expect(frame.values).toEqual([2, 1.5, 1])
    expect(store.drainFrame()).toEqual({ keys: [], masks: [], values: [], base: clock.now() })
  })

  it('sends times as small offsets from the frame base, and absolute when one is not whole', () => {
    const clock = new FakeClock()
    const store = new QuoteStore(clock)
    store.drainFrame()
    const t0 = clock.now()
    store.apply(tick({ last: 1 }, { ts: t0 - 3, receivedAt: t0 - 1 }))
    clock.advance(7)
    const frame = store.drainFrame()
    expect(frame.base).toBe(t0 + 7)
    const bit = (f: (typeof FRAME_FIELDS)[number]): number => 1 << FRAME_FIELDS.indexOf(f)
    const times = frame.values.filter((_, i) => i >= frame.values.length - 5).slice(0, 2)
    expect((frame.masks[0] ?? 0) & (bit('ts') | bit('receivedAt'))).not.toBe(0)
    expect(times).toEqual([-10, -8])
    expect(decodeQuoteFrame(JSON.parse(JSON.stringify(frame)))[0]).toMatchObject({
      ts: t0 - 3,
      receivedAt: t0 - 1,
    })
    store.apply(tick({ last: 2 }, { ts: t0 + 0.25, receivedAt: t0 + 5 }))
    store.apply(tick({ last: 3 }, { symbol: 'ETHUSDT', ts: t0 + 2, receivedAt: t0 + 5 }))
    const mixed = store.drainFrame()
    expect(mixed.base).toBe(0)
    expect(decodeQuoteFrame(mixed).map((p) => [p.ts, p.receivedAt])).toEqual([
      [t0 + 0.25, t0 + 5],
      [t0 + 2, t0 + 5],
    ])
  })

  it('drains only the fields that changed since the last drain', () => {
    const clock = new FakeClock()
    const store = new QuoteStore(clock)
    store.apply(tick({ last: 100, bid: 99, ask: 101 }))
    store.drainPatches()
    expect(store.hasDirty()).toBe(false)

    store.apply(tick({ last: 100, bid: 99.5 }))
    expect(store.drainPatches()).toEqual([{ key: 'crypto:BTCUSDT', bid: 99.5 }])

    clock.advance(1000)
    store.apply(tick({ last: 100, ask: 102 }, { ts: 5 }))
    expect(store.drainPatches()).toEqual([
      { key: 'crypto:BTCUSDT', ask: 102, ts: 5, receivedAt: clock.now() },
    ])
  })

  it('accumulates changes of several updates into one patch per key', () => {
    const store = new QuoteStore(new FakeClock())
    store.apply(tick({ last: 1 }))
    store.apply(tick({ last: 1 }, { symbol: 'ETHUSDT' }))
    store.drainPatches()
    store.apply(tick({ last: 2 }))
    store.apply(tick({ bid: 1.9 }))
    store.apply(tick({ last: 3 }))
    const patches = store.drainPatches()
    expect(patches).toEqual([{ key: 'crypto:BTCUSDT', last: 3, bid: 1.9 }])
  })

  it('reports a stale flip in the patch, and nothing when nothing changed', () => {
    const store = new QuoteStore(new FakeClock())
    store.apply(tick({ last: 1 }))
    store.drainPatches()
    store.markStale('all')
    store.markStale('all')
    expect(store.drainPatches()).toEqual([{ key: 'crypto:BTCUSDT', stale: true }])
    expect(store.drainPatches()).toEqual([])
  })

  it('forgets a removed key, including its pending patch', () => {
    const store = new QuoteStore(new FakeClock())
    store.apply(tick({ last: 1 }))
    store.remove('crypto:BTCUSDT')
    expect(store.get('crypto:BTCUSDT')).toBeUndefined()
    expect(store.hasDirty()).toBe(false)
    expect(store.apply(tick({ bid: 1 })).last).toBeNull()
  })
})
