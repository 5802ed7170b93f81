import { describe, expect, it } from 'vitest'
import { FakeClock } from '../core/clock'
import type { Notice } from '../shared/bridge'
import { NoticeBoard } from './notice-board'

describe('the notice board', () => {
  it('shows a cause once: raised again it is merged with a count and the newest wording', () => {
    const clock = new FakeClock()
    const seen: Notice[][] = []
    const board = new NoticeBoard(clock, (n) => seen.push(n))
    board.add('warning', 'DISK_FULL', 'The disk is full: settings not saved.')
    board.add('error', 'STORAGE_CORRUPT', 'watchlists.json was damaged; moved aside.')
    clock.advance(1000)
    board.add('warning', 'DISK_FULL', 'The disk is full: the quote cache was not saved.', 'ENOSPC')
    expect(board.all().map((n) => [n.code, n.message, n.detail, n.count])).toEqual([
      ['DISK_FULL', 'The disk is full: the quote cache was not saved.', 'ENOSPC', 2],
      ['STORAGE_CORRUPT', 'watchlists.json was damaged; moved aside.', null, 1],
    ])
    expect(board.all()[0]?.at).toBe(clock.now())
    expect(seen).toHaveLength(3)
  })

  it('raises a dismissed cause afresh', () => {
    const board = new NoticeBoard(new FakeClock(), () => undefined)
    board.add('warning', 'DISK_FULL', 'full')
    board.dismiss(board.all()[0]!.id)
    board.add('warning', 'DISK_FULL', 'full')
    expect(board.all().map((n) => n.count)).toEqual([1])
  })
})
