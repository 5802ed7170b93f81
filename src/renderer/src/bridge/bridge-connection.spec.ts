import { describe, expect, it } from 'vitest'
import { FIRST_CONNECTION, nextConnection, retryDelay, type Connection } from './bridge-connection'

describe('the bridge connection’s states', () => {
  it('goes connecting -> open -> waiting -> connecting -> open, counting tries since the last open', () => {
    let c: Connection = FIRST_CONNECTION
    c = nextConnection(c, { type: 'opened' })
    expect(c).toEqual({ state: 'open', reconnected: false })
    c = nextConnection(c, { type: 'dropped', retry: true })
    expect(c).toEqual({ state: 'waiting', tries: 1, everOpened: true })
    c = nextConnection(c, { type: 'retry' })
    expect(c).toEqual({ state: 'connecting', tries: 1, everOpened: true })
    c = nextConnection(c, { type: 'dropped', retry: true })
    expect(c).toEqual({ state: 'waiting', tries: 2, everOpened: true })
    c = nextConnection(nextConnection(c, { type: 'retry' }), { type: 'opened' })
    expect(c).toEqual({ state: 'open', reconnected: true })
  })

  it('closes for good on close, and on a drop when it is not to try again', () => {
    for (const from of [
      FIRST_CONNECTION,
      { state: 'open', reconnected: false } as const,
      { state: 'waiting', tries: 1, everOpened: false } as const,
    ])
      expect(nextConnection(from, { type: 'close' })).toEqual({ state: 'closed' })
    expect(nextConnection(FIRST_CONNECTION, { type: 'dropped', retry: false })).toEqual({
      state: 'closed',
    })
    expect(
      nextConnection({ state: 'open', reconnected: false }, { type: 'dropped', retry: false }),
    ).toEqual({ state: 'closed' })
    const closed: Connection = { state: 'closed' }
    for (const e of [{ type: 'opened' }, { type: 'retry' }, { type: 'close' }] as const)
      expect(nextConnection(closed, e)).toBe(closed)
  })

  it('ignores an event a state does not take', () => {
    const open: Connection = { state: 'open', reconnected: false }
    expect(nextConnection(open, { type: 'opened' })).toBe(open)
    expect(nextConnection(open, { type: 'retry' })).toBe(open)
    expect(nextConnection(FIRST_CONNECTION, { type: 'retry' })).toBe(FIRST_CONNECTION)
    const waiting: Connection = { state: 'waiting', tries: 2, everOpened: false }
    expect(nextConnection(waiting, { type: 'opened' })).toBe(waiting)
    expect(nextConnection(waiting, { type: 'dropped', retry: true })).toBe(waiting)
  })

  it('waits a random time under a cap that doubles with each try, up to the most', () => {
    const half = (): number => 0.5
    expect(retryDelay(1, half, 250, 5000)).toBe(125)
    expect(retryDelay(2, half, 250, 5000)).toBe(250)
    expect(retryDelay(3, half, 250, 5000)).toBe(500)
    expect(retryDelay(10, half, 250, 5000)).toBe(2500)
    expect(retryDelay(1, () => 0.999, 250, 5000)).toBe(249)
    expect(retryDelay(1, () => 0, 250, 5000)).toBe(0)
  })
})
