import { describe, expect, it } from 'vitest'
import { TileSeries } from './tile-series'
import { WALL_FRAME_MS, WallPainter, type PaintedTile } from './wall-painter'

const MIN = 60_000

function tile(key: string, visible: boolean): PaintedTile & { drawn: number } {
  const series = new TileSeries('5m')
  return {
    key,
    visible,
    drawn: 0,
    series: () => series,
    draw() {
      this.drawn++
    },
  }
}

describe('live prices onto the wall', () => {
  it('redraws, once a frame, only tiles in view whose bars a price changed', () => {
    const rows: Record<string, { newest: { last: number | null }; ts: number }> = {
      a: { newest: { last: 10 }, ts: MIN },
      b: { newest: { last: 20 }, ts: MIN },
      c: { newest: { last: 30 }, ts: MIN },
    }
    let now = 0
    const timers: Array<() => void> = []
    const painter = new WallPainter((key) => rows[key]!, {
      now: () => now,
      setTimer: (fn) => timers.push(fn),
    })
    const a = tile('a', true)
    const b = tile('b', true)
    const c = tile('c', false)
    for (const t of [a, b, c]) painter.add(t)
    expect(painter.frame()).toBe(2)
    // Nothing moved: nothing is drawn.
    now += WALL_FRAME_MS
    expect(painter.frame()).toBe(0)
    rows.a = { newest: { last: 11 }, ts: 2 * MIN }
    rows.c = { newest: { last: 31 }, ts: 2 * MIN }
    now += WALL_FRAME_MS
    expect(painter.frame()).toBe(1)
    expect([a.drawn, b.drawn, c.drawn]).toEqual([2, 1, 0])
    // Scrolled back into view: it catches up with the newest price at once.
    c.visible = true
    painter.show(c)
    expect(c.drawn).toBe(1)
    expect(c.series().columns[4]).toEqual([31])
  })

  it('redraws at most every WALL_FRAME_MS; prices in between are drawn by one timer', () => {
    const row = { newest: { last: 10 as number | null }, ts: MIN }
    let now = 0
    const timers: Array<{ fn: () => void; ms: number }> = []
    const painter = new WallPainter(() => row, {
      now: () => now,
      setTimer: (fn, ms) => timers.push({ fn, ms }),
    })
    const a = tile('a', true)
    painter.add(a)
    expect(painter.frame()).toBe(1)
    for (let i = 1; i <= 5; i++) {
      now += 16
      row.newest.last = 10 + i
      row.ts = MIN + i
      expect(painter.frame()).toBe(0)
    }
    // Five price frames in 80 ms: one timer, for the rest of the interval.
    expect(timers).toHaveLength(1)
    expect(timers[0]?.ms).toBe(WALL_FRAME_MS - 16)
    now = WALL_FRAME_MS
    timers[0]?.fn()
    expect(a.drawn).toBe(2)
    expect(a.series().columns[4]).toEqual([15])
  })
})
