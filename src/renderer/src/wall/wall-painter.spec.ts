import { describe, expect, it } from 'vitest'
import { TileSeries } from './tile-series'
import { WallPainter, type PaintedTile } from './wall-painter'

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
    const painter = new WallPainter((key) => rows[key]!)
    const a = tile('a', true)
    const b = tile('b', true)
    const c = tile('c', false)
    for (const t of [a, b, c]) painter.add(t)
    expect(painter.frame()).toBe(2)
    // Nothing moved: nothing is drawn.
    expect(painter.frame()).toBe(0)
    rows.a = { newest: { last: 11 }, ts: 2 * MIN }
    rows.c = { newest: { last: 31 }, ts: 2 * MIN }
    expect(painter.frame()).toBe(1)
    expect([a.drawn, b.drawn, c.drawn]).toEqual([2, 1, 0])
    // Scrolled back into view: it catches up with the newest price at once.
    c.visible = true
    painter.show(c)
    expect(c.drawn).toBe(1)
    expect(c.series().columns[4]).toEqual([31])
  })
})
