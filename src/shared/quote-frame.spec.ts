import { describe, expect, it } from 'vitest'
import type { QuotePatch } from './quote'
import { EventSchema } from './bridge'
import { decodeQuoteFrame, encodeQuoteFrame, FRAME_FIELDS, isQuoteFrame } from './quote-frame'

const patches: QuotePatch[] = [
  { key: 'crypto:BTCUSDT', last: 64000.5, bid: null, ts: 1, receivedAt: 2, source: 'stream' },
  { key: 'fx:EURUSD', stale: true, source: 'cache' },
  { key: 'hk:00700', volume: 12, changePercent: -1.5, stale: false },
]

describe('quote frames (the bridge form of quote patches)', () => {
  it('carry every patch field exactly, coded fields and explicit nulls included', () => {
    const frame = encodeQuoteFrame(patches)
    expect(isQuoteFrame(frame)).toBe(true)
    expect(decodeQuoteFrame(JSON.parse(JSON.stringify(frame)))).toEqual(patches)
  })

  it('carry times as offsets from the frame base, read back exactly', () => {
    const frame = {
      keys: ['crypto:BTCUSDT'],
      masks: [(1 << FRAME_FIELDS.indexOf('ts')) | (1 << FRAME_FIELDS.indexOf('receivedAt'))],
      values: [-12, 3],
      base: 1_764_140_000_000,
    }
    expect(isQuoteFrame(frame)).toBe(true)
    expect(decodeQuoteFrame(frame)).toEqual([
      { key: 'crypto:BTCUSDT', ts: 1_764_139_999_988, receivedAt: 1_764_140_000_003 },
    ])
  })

  it('are accepted by the bridge contract, and anything malformed is rejected at the edge', () => {
    const frame = encodeQuoteFrame(patches)
    expect(EventSchema.safeParse({ type: 'quotes', frame }).success).toBe(true)
    const bad: unknown[] = [
      { ...frame, values: frame.values.slice(1) },
      { ...frame, values: [...frame.values, 1] },
      { ...frame, keys: ['', ...frame.keys.slice(1)] },
      { ...frame, keys: ['x'.repeat(65), ...frame.keys.slice(1)] },
      { ...frame, masks: [1 << 20, ...frame.masks.slice(1)] },
      { ...frame, masks: [0.5, ...frame.masks.slice(1)] },
      { ...frame, values: frame.values.map((v) => (v === 64000.5 ? '64000.5' : v)) },
      encodeQuoteFrame([{ key: 'a', last: Number.NaN }]),
      { keys: ['a'], masks: [1 << FRAME_FIELDS.indexOf('ts')], values: [null] },
      { keys: ['a'], masks: [1 << FRAME_FIELDS.indexOf('source')], values: [7] },
      { keys: ['a'], masks: [1 << FRAME_FIELDS.indexOf('stale')], values: [2] },
      { keys: ['a'], masks: [1], values: [1], base: 1.5 },
      { keys: ['a'], masks: [1], values: [1], base: '1' },
      { keys: ['a'], masks: [1], values: [1], extra: 'ignored' },
      null,
      { quotes: patches },
    ]
    const accepted = bad.map((f) => EventSchema.safeParse({ type: 'quotes', frame: f }).success)
    expect(accepted).toEqual([...Array(13).fill(false), true, false, false])
  })
})
