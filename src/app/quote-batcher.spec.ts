import { stat } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { QuotePatch } from '../shared/quote'
import { QuoteBatcher, whenLoopIsFree, type Schedule } from './quote-batcher'

/** A schedule stepped by hand: the test says when the event loop's turn ends. */
function manual(): { schedule: Schedule; due: () => number; endTurn: () => void } {
  let runs: Array<() => void> = []
  return {
    schedule: (run) => {
      runs.push(run)
      return () => (runs = runs.filter((r) => r !== run))
    },
    due: () => runs.length,
    endTurn: () => {
      const now = runs
      runs = []
      for (const r of now) r()
    },
  }
}

describe('QuoteBatcher', () => {
  it('sends everything that changed in one turn of the loop as one batch, right after it', () => {
    const loop = manual()
    const pending: QuotePatch[] = []
    const sent: QuotePatch[][] = []
    const batcher = new QuoteBatcher(
      loop.schedule,
      () => pending.splice(0),
      (b) => sent.push(b),
    )
    for (let i = 0; i < 100; i++) {
      pending.push({ key: `crypto:S${i % 10}`, last: i })
      batcher.request()
    }
    expect(loop.due()).toBe(1)
    expect(sent).toHaveLength(0)
    loop.endTurn()
    expect(sent).toHaveLength(1)
    expect(sent[0]).toHaveLength(100)
  })

  it('schedules nothing while nothing changes, and sends no empty batch', () => {
    const loop = manual()
    const batcher = new QuoteBatcher(
      loop.schedule,
      () => [],
      () => undefined,
    )
    expect(loop.due()).toBe(0)
    batcher.request()
    loop.endTurn()
    expect(loop.due()).toBe(0)
    expect(batcher.batchCount()).toBe(0)
  })

  it('on the real loop, flushes right after the I/O that brought the ticks, before any timer', async () => {
    const pending: QuotePatch[] = []
    const order: string[] = []
    const batcher = new QuoteBatcher(
      whenLoopIsFree,
      () => pending.splice(0),
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

  it('stop() cancels a due flush', () => {
    const loop = manual()
    const sent: QuotePatch[][] = []
    const batcher = new QuoteBatcher(
      loop.schedule,
      () => [{ key: 'fx:EURUSD', last: 1 }],
      (b) => sent.push(b),
    )
    batcher.request()
    batcher.stop()
    loop.endTurn()
    expect(sent).toHaveLength(0)
  })
})
