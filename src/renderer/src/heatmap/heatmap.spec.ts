import { describe, expect, it } from 'vitest'
import { changeStep, changeText, STEP_COLOURS, STEPS } from './heatmap-colour'
import { baseAt, changeOf, tradedValue, type HeatRow } from './heatmap-figures'
import { evenGrid, MIN_TILE, tileMoveTo, treemap } from './heatmap-layout'
import { HeatmapPainter, type HeatTile } from './heatmap-painter'
import type { PriceValues } from '../state/price-fields'
import { QUOTE_FIGURES } from '../../../shared/quote'

const NONE = Object.fromEntries(QUOTE_FIGURES.map((f) => [f, null])) as PriceValues
const MIN = 60_000

function row(values: Partial<PriceValues>, history: Array<[t: number, v: number]> = []): HeatRow {
  return {
    newest: { ...NONE, ...values },
    spark: {
      length: history.length,
      at: (i) => history[i]?.[1] ?? 0,
      timeAt: (i) => history[i]?.[0] ?? 0,
    },
  }
}

/** WCAG 2 contrast of two #rrggbb colours. */
function contrast(a: string, b: string): number {
  const lum = (hex: string): number => {
    const [r, g, bl] = [1, 3, 5].map((i) => {
      const v = parseInt(hex.slice(i, i + 2), 16) / 255
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4
    }) as [number, number, number]
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl
  }
  const [x, y] = [lum(a), lum(b)]
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05)
}

describe('heatmap colours and figures', () => {
  it('steps from the deepest red to the deepest green, flat within ±0.1 %', () => {
    expect(changeStep(-7)).toBe(0)
    expect(changeStep(-0.05)).toBe(5)
    expect(changeStep(0.05)).toBe(5)
    expect(changeStep(0.5)).toBe(7)
    expect(changeStep(12)).toBe(STEPS - 1)
    expect(changeStep(null)).toBe(-1)
  })

  it('carries white text at AA contrast on every step', () => {
    for (const c of STEP_COLOURS) expect(contrast(c, '#ffffff'), c).toBeGreaterThanOrEqual(4.5)
  })

  it('writes hundredths of a percent with a sign', () => {
    expect(changeText(125)).toBe('+1.25%')
    expect(changeText(-40)).toBe('−0.40%')
    expect(changeText(0)).toBe('0.00%')
    expect(changeText(null)).toBe('—')
  })

  it('measures since a moment from the last price held then, and says nothing when the history is shorter', () => {
    const r = row({ last: 110 }, [
      [10 * MIN, 100],
      [20 * MIN, 105],
      [30 * MIN, 108],
    ])
    expect(baseAt(r, 25 * MIN)).toBe(105)
    expect(changeOf(r, 'since', baseAt(r, 25 * MIN))).toBeCloseTo((110 / 105 - 1) * 100, 10)
    expect(baseAt(r, 5 * MIN)).toBeNull()
    expect(changeOf(r, 'since', null)).toBeNull()
    expect(changeOf(row({ changePercent: -1.5 }), 'day', null)).toBe(-1.5)
  })

  it("sizes by the day's traded value: the quote volume, else volume times price", () => {
    expect(tradedValue(row({ quoteVolume: 5e6, volume: 10, last: 3 }))).toBe(5e6)
    expect(tradedValue(row({ volume: 10, last: 3 }))).toBe(30)
    expect(tradedValue(row({ last: 3 }))).toBeNull()
  })
})

describe('heatmap layout', () => {
  it('fills the box with tiles alike, and scrolls once they would be too small', () => {
    const few = evenGrid(6, 600, 400)
    expect(few.rects).toHaveLength(6)
    expect(few.height).toBeCloseTo(400, 5)
    const many = evenGrid(500, 1400, 600)
    expect(many.rects.every((r) => r.w >= MIN_TILE.w && r.h >= MIN_TILE.h)).toBe(true)
    expect(many.height).toBeGreaterThan(600)
  })

  it('gives each tile an area in proportion to its weight, filling the box', () => {
    const rects = treemap([6, 3, 1, 0], 400, 300)
    const area = rects.map((r) => r.w * r.h)
    const total = area.reduce((a, b) => a + b, 0)
    expect(total).toBeCloseTo(400 * 300, 3)
    expect(area[0]! / area[1]!).toBeCloseTo(2, 5)
    expect(area[3]!).toBeGreaterThan(0) // no weight: the least share, still a tile
    for (const r of rects) {
      expect(r.x).toBeGreaterThanOrEqual(-1e-9)
      expect(r.x + r.w).toBeLessThanOrEqual(400 + 1e-9)
    }
  })

  it('moves with the arrows to the nearest tile that way, Home and End to the ends', () => {
    const { rects } = evenGrid(9, 300, 300) // 3 x 3 at this box... or as laid out
    const cols = rects.filter((r) => r.y === 0).length
    expect(tileMoveTo(rects, 0, 'ArrowRight')).toBe(1)
    expect(tileMoveTo(rects, 0, 'ArrowDown')).toBe(cols)
    expect(tileMoveTo(rects, 0, 'ArrowUp')).toBe(0)
    expect(tileMoveTo(rects, 4, 'End')).toBe(8)
    expect(tileMoveTo(rects, 4, 'x')).toBeNull()
  })
})

describe('the heatmap painter', () => {
  it('writes a tile only when its shown figure or colour changes', () => {
    const values = { ...NONE, changePercent: 0.2 }
    const r: HeatRow = { newest: values, spark: row({}).spark }
    const el = { style: { background: '' }, dataset: {} as Record<string, string> }
    const figure = { data: '' }
    const tile = { key: 'k', row: r, el, figure, base: null, shown: undefined, step: Number.NaN }
    const painter = new HeatmapPainter()
    painter.add(tile as unknown as HeatTile)
    expect(figure.data).toBe('+0.20%')
    expect(el.dataset.step).toBe('6')
    values.changePercent = 0.201
    expect(painter.frame()).toBe(0)
    values.changePercent = -2.5
    expect(painter.frame()).toBe(1)
    expect([figure.data, el.dataset.step, el.style.background]).toEqual([
      '−2.50%',
      '1',
      STEP_COLOURS[1],
    ])
  })
})
