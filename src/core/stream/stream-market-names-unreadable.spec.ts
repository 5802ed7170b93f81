import { describe, expect, it } from 'vitest'
import { FakeClock } from '../../util/clock'
import { ANSWER_BOUND_MS, StreamMarketNames } from './stream-market-names'

/**
 * A name is judged on silence only when the socket could read what came: a garbled frame in the
 * bound may have been the ack or the first push (test/faults/network-faults.spec.ts: a flood of
 * malformed frames must leave the stream streaming).
 */
describe('stream market names: a bound with unreadable frames in it', () => {
  function setup(): { names: StreamMarketNames; clock: FakeClock; garble: () => void } {
    const clock = new FakeClock()
    let unreadable = 0
    const names = new StreamMarketNames({
      clock,
      onChange: () => undefined,
      unreadable: () => unreadable,
    })
    return { names, clock, garble: () => void unreadable++ }
  }

  it('waits another bound instead of calling the name silent', () => {
    const { names, clock, garble } = setup()
    names.sent('crypto')
    clock.advance(ANSWER_BOUND_MS.crypto / 2)
    garble()
    clock.advance(ANSWER_BOUND_MS.crypto)
    expect(names.notStreaming()).toEqual([])
    names.pushed('crypto')
    expect(names.streaming('crypto')).toBe(true)
  })

  it('still fails a name after a whole bound the socket read in silence', () => {
    const { names, clock, garble } = setup()
    names.sent('crypto')
    garble()
    clock.advance(ANSWER_BOUND_MS.crypto)
    clock.advance(ANSWER_BOUND_MS.crypto)
    expect(names.notStreaming().map((f) => f.market)).toEqual(['crypto'])
  })
})
