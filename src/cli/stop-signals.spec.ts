import { afterEach, describe, expect, it } from 'vitest'
import { stopOnSignals } from './stop-signals'

// process.emit runs the listeners as a signal would, without a signal reaching the test worker.
let dispose = (): void => undefined
afterEach(() => dispose())

describe("SIGINT and SIGTERM into the command's stop", () => {
  it('keeps listening while it stops, so a library that checks for other listeners sees one', () => {
    // signal-exit (write-file-atomic) raises the signal again when its own listener is the last.
    const seen: number[] = []
    dispose = stopOnSignals(() => seen.push(process.listenerCount('SIGINT')))
    process.emit('SIGINT')
    expect(seen).toHaveLength(1)
    expect(seen[0]).toBeGreaterThan(0)
  })

  it('stops once, and a second signal while stopping ends the process with 128 + its number', () => {
    let stops = 0
    const exits: number[] = []
    dispose = stopOnSignals(
      () => stops++,
      (code) => exits.push(code),
    )
    process.emit('SIGTERM')
    expect([stops, exits]).toEqual([1, []])
    process.emit('SIGINT')
    expect(exits).toEqual([130])
  })
})
