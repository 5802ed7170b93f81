import { stat } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { QuotePatch } from '../../shared/quote'
import { encodeQuoteFrame, type QuoteFrame } from '../../shared/quote-frame'
import { MIN_GAP_MS, QuoteBatcher, realTiming } from './quote-batcher'
import { steppedTiming } from '../testing/stepped-timing'

/** Timing stepped by hand: the test says when the loop's turn ends and how time moves. */
describe('QuoteBatcher', () => {
  it('sends everything that changed in one turn of the loop as one batch, right after it', () => {
    const loop = steppedTiming({ start: 1000 })
    const pending: QuotePatch[] = []
    const sent: QuoteFrame[] = []
    const batcher = new QuoteBatcher(
      loop.timing,
      () => encodeQuoteFrame(pending.splice(0)),
      (b) => sent.push(b),
    )
    for (let i = 0; i < 100; i++) {
      pending.push({ key: `crypto:S${i % 10}`, last: i })
      batcher.request()
    }
    expect(loop.due()).toBe(1)
    expect(sent).toHaveLength(0)
    loop.runSoon()
    expect(sent).toHaveLength(1)
    expect(sent[0]?.keys).toHaveLength(100)
  })

  it('schedules nothing while nothing changes, and sends no empty batch', () => {
    const loop = steppedTiming({ start: 1000 })
    const sent: unknown[] = []
    const batcher = new QuoteBatcher(
      loop.timing,
      () => encodeQuoteFrame([]),
      (frame) => sent.push(frame),
    )
    expect(loop.due()).toBe(0)
    batcher.request()
    loop.runSoon()
    expect(loop.due()).toBe(0)
    expect(sent).toEqual([])
  })

  it('on the real loop, flushes right after the I/O that brought the ticks, before any timer', async () => {
    const pending: QuotePatch[] = []
    const order: string[] = []
    const batcher = new QuoteBatcher(
      realTiming,
      () => encodeQuoteFrame(pending.splice(0)),
      () => order.push('batch'),
    )
    // Ticks arrive in an I/O callback (a socket read); Node runs setImmediate before timers then.
    await new Promise<void>((resolve) =>
      stat(import.meta.filename, () => {
        setTimeout(() => {
          order.push('timer 0 ms')
          resolve()
        }, 0)
        pending.push({ key: 'fx:EURUSD', last: 1.1 })
        batcher.request()
      }),
    )
    expect(order).toEqual(['batch', 'timer 0 ms'])
  })

  it('keeps MIN_GAP_MS between batches: ticks right after a batch wait for the rest of it', () => {
    const loop = steppedTiming({ start: 1000 })
    const pending: QuotePatch[] = []
    const sent: number[] = []
    const batcher = new QuoteBatcher(
      loop.timing,
      () => encodeQuoteFrame(pending.splice(0)),
      (b) => sent.push(b.keys.length),
    )
    pending.push({ key: 'a', last: 1 })
    batcher.request()
    loop.runSoon()
    expect(sent).toEqual([1])
    pending.push({ key: 'a', last: 2 }, { key: 'b', last: 3 })
    batcher.request()
    loop.runSoon()
    loop.advance(MIN_GAP_MS - 1)
    expect(sent).toEqual([1])
    loop.advance(1)
    expect(sent).toEqual([1, 2])
  })

  it('stop() cancels a due flush', () => {
    const loop = steppedTiming({ start: 1000 })
    const sent: QuoteFrame[] = []
    const batcher = new QuoteBatcher(
      loop.timing,
      () => encodeQuoteFrame([{ key: 'fx:EURUSD', last: 1 }]),
      (b) => sent.push(b),
    )
    batcher.request()
    batcher.stop()
    loop.runSoon()
    expect(sent).toHaveLength(0)
  })
})
