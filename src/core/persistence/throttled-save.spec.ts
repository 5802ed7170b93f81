import { describe, expect, it } from 'vitest'
import { FakeClock } from '../clock'
import { ThrottledSave } from './throttled-save'

function setup(): { clock: FakeClock; saved: number[]; saver: ThrottledSave<number> } {
  const clock = new FakeClock()
  const saved: number[] = []
  const saver = new ThrottledSave<number>({
    clock,
    intervalMs: 5000,
    save: async (v) => {
      saved.push(v)
    },
  })
  return { clock, saved, saver }
}

const settle = (): Promise<void> => new Promise((r) => setImmediate(r))

describe('ThrottledSave', () => {
  it('saves at most once per interval, with the newest value', async () => {
    const { clock, saved, saver } = setup()
    let value = 0
    saver.request(() => value)
    await settle()
    clock.advance(0)
    await settle()
    expect(saved).toEqual([0])
    for (let i = 1; i <= 100; i++) {
      value = i
      saver.request(() => value)
      clock.advance(40)
    }
    await settle()
    expect(saved).toEqual([0])
    clock.advance(1000)
    await settle()
    expect(saved).toEqual([0, 100])
  })

  it('flushes a pending request at once on shutdown, and does nothing when idle', async () => {
    const { saved, saver } = setup()
    await saver.flush()
    expect(saved).toEqual([])
    saver.request(() => 7)
    await saver.flush()
    expect(saved).toEqual([7])
  })

  it('reports a failed save and keeps going', async () => {
    const clock = new FakeClock()
    const errors: unknown[] = []
    let fail = true
    const saved: number[] = []
    const saver = new ThrottledSave<number>({
      clock,
      save: async (v) => {
        if (fail) throw new Error('disk full')
        saved.push(v)
      },
      onError: (e) => errors.push(e),
    })
    saver.request(() => 1)
    await saver.flush()
    fail = false
    saver.request(() => 2)
    await saver.flush()
    expect(errors).toHaveLength(1)
    expect(saved).toEqual([2])
  })

  it('waits a whole interval before the first save when the file was current at start', async () => {
    const clock = new FakeClock()
    const saved: number[] = []
    const saver = new ThrottledSave<number>({
      clock,
      intervalMs: 5000,
      freshAtStart: true,
      save: async (v) => {
        saved.push(v)
      },
    })
    clock.advance(1000)
    saver.request(() => 1)
    clock.advance(3999)
    await settle()
    expect(saved).toEqual([])
    clock.advance(1)
    await settle()
    expect(saved).toEqual([1])
  })
})
