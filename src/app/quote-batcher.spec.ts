import { describe, expect, it } from 'vitest'
import { FakeClock } from '../core/clock'
import type { QuotePatch } from '../shared/quote'
import { FRAME_MS, QuoteBatcher } from './quote-batcher'

describe('QuoteBatcher', () => {
  it('sends at most one batch per 16 ms frame however many changes arrive', () => {
    const clock = new FakeClock()
    const pending: QuotePatch[] = []
    const sent: QuotePatch[][] = []
    const batcher = new QuoteBatcher(
      clock,
      () => pending.splice(0),
      (b) => sent.push(b),
    )
    for (let i = 0; i < 1000; i++) {
      pending.push({ key: `crypto:S${i % 10}`, last: i })
      batcher.request()
      clock.advance(0.16)
    }
    // 1000 requests over 160 ms -> about 10 frames, never more than one per 16 ms.
    expect(sent.length).toBeLessThanOrEqual(Math.ceil(160 / FRAME_MS) + 1)
    expect(sent.flat()).toHaveLength(1000 - pending.length)
  })

  it('schedules nothing while nothing changes', () => {
    const clock = new FakeClock()
    const batcher = new QuoteBatcher(
      clock,
      () => [],
      () => undefined,
    )
    expect(clock.pendingTimers()).toBe(0)
    batcher.request()
    clock.advance(FRAME_MS)
    expect(clock.pendingTimers()).toBe(0)
    expect(batcher.batchCount()).toBe(0)
  })
})
