import { describe, expect, it } from 'vitest'
import { FakeClock } from '../core/clock'
import { OutsideEdits, type ChangeableFile } from './outside-edits'

/** A file whose next outside value the test sets; counts how often it was looked at. */
function file<T>(): ChangeableFile<T> & { next: T | null; looks: number } {
  return {
    next: null,
    looks: 0,
    outsideChange() {
      this.looks++
      const v = this.next
      this.next = null
      return Promise.resolve(v)
    },
  }
}

const settle = (): Promise<void> => new Promise((r) => setImmediate(r))

describe('OutsideEdits', () => {
  it('looks at each file every few seconds and hands over a changed value once', async () => {
    const clock = new FakeClock()
    const edits = new OutsideEdits(clock, 3_000)
    const lots = file<string[]>()
    const taken: string[][] = []
    edits.watch(lots, (v) => void taken.push(v))
    edits.start()
    clock.advance(2_999)
    await settle()
    expect(lots.looks).toBe(0)
    lots.next = ['cli-lot']
    clock.advance(1)
    await settle()
    expect(taken).toEqual([['cli-lot']])
    clock.advance(3_000)
    await settle()
    expect(lots.looks).toBe(2)
    expect(taken).toHaveLength(1)
    await edits.close()
    clock.advance(30_000)
    await settle()
    expect(lots.looks).toBe(2)
  })

  it('goes on with the other files when one cannot be read', async () => {
    const clock = new FakeClock()
    const edits = new OutsideEdits(clock)
    const broken: ChangeableFile<number> = {
      outsideChange: () => Promise.reject(new Error('EACCES')),
    }
    const rules = file<number>()
    const taken: number[] = []
    edits.watch(broken, () => undefined)
    edits.watch(rules, (v) => void taken.push(v))
    rules.next = 7
    await edits.checkNow()
    expect(taken).toEqual([7])
    await edits.close()
  })
})
