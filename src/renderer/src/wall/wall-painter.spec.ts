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

type Figures = { last: number | null } & Record<'open' | 'high' | 'low' | 'prevClose', null>
const figures = (last: number): Figures => ({
  last,
  open: null,
  high: null,
  low: null,
  prevClose: null,
})

const THEME = { up: 'green', down: 'red', accent: 'blue', muted: 'grey' }

describe('live prices onto the wall', () => {
  it('redraws, once a frame, only tiles in view whose bars a price changed', () => {
    const rows: Record<string, { newest: Figures; ts: number }> = {
      a: { newest: figures(10), ts: MIN },
      b: { newest: figures(20), ts: MIN },
      c: { newest: figures(30), ts: MIN },
    }
    const painter = new WallPainter(
      (key) => rows[key]!,
      () => THEME,
    )
    const a = tile('a', true)
    const b = tile('b', true)
    const c = tile('c', false)
    for (const t of [a, b, c]) painter.add(t)
    expect(painter.frame()).toBe(2)
    // Nothing moved: nothing is drawn.
    expect(painter.frame()).toBe(0)
    rows.a = { newest: figures(11), ts: 2 * MIN }
    rows.c = { newest: figures(31), ts: 2 * MIN }
    expect(painter.frame()).toBe(1)
    expect([a.drawn, b.drawn, c.drawn]).toEqual([2, 1, 0])
    // Scrolled back into view: it catches up with the newest price at once.
    c.visible = true
    painter.show(c)
    expect(c.drawn).toBe(1)
    expect(c.series().columns[4]).toEqual([31])
  })

  it('reads the theme once per pass that draws, however many tiles draw in it', () => {
    const rows: Record<string, { newest: Figures; ts: number }> = {}
    const painter = new WallPainter(
      (key) => rows[key]!,
      () => {
        reads++
        return THEME
      },
    )
    let reads = 0
    const tiles = Array.from({ length: 30 }, (_, i) => tile(`k${i}`, true))
    const seen: string[] = []
    for (const t of tiles) {
      t.draw = () => {
        t.drawn++
        seen.push(painter.theme.up)
      }
      painter.add(t)
    }
    for (let pass = 1; pass <= 3; pass++) {
      for (const t of tiles) rows[t.key] = { newest: figures(10 + pass), ts: pass * MIN }
      expect(painter.frame()).toBe(30)
    }
    expect(reads).toBe(3)
    expect(seen).toHaveLength(90)
    expect(new Set(seen)).toEqual(new Set(['green']))
    // A pass in which nothing moved reads nothing.
    painter.frame()
    expect(reads).toBe(3)
  })
})
