import { describe, expect, it } from 'vitest'
import type { Drawing } from '../../../../shared/drawings/drawing'
import { lineAt } from '../../../../shared/drawings/drawing-geometry'
import { drawingFrom, keyMoved, placedInView, snapTime } from './drawing-edit'
import { DrawingHistory } from './drawing-history'

const MIN = 60_000
const T0 = Date.UTC(2026, 10, 30, 9)
const steps = { price: 0.5, barMs: 5 * MIN }

describe('drawings from points', () => {
  it('makes a trend line with its earlier point first, and nothing from one moment', () => {
    const d = drawingFrom('trend', 'x', { t: T0 + MIN, price: 2 }, { t: T0, price: 1 })
    expect(d).toEqual({
      kind: 'line',
      id: 'x',
      line: { shape: 'trend', a: { t: T0, price: 1 }, b: { t: T0 + MIN, price: 2 } },
    })
    expect(drawingFrom('trend', 'x', { t: T0, price: 1 }, { t: T0, price: 2 })).toBeNull()
  })

  it('makes a range from any two corners, and nothing without height', () => {
    const d = drawingFrom('range', 'r', { t: T0 + MIN, price: 1 }, { t: T0, price: 3 })
    expect(d).toEqual({
      kind: 'range',
      id: 'r',
      range: { from: T0, to: T0 + MIN, low: 1, high: 3 },
    })
    expect(drawingFrom('range', 'r', { t: T0, price: 1 }, { t: T0 + MIN, price: 1 })).toBeNull()
  })

  it('snaps a moment to the nearest bar of the chart', () => {
    expect(snapTime(T0 + 2.4 * MIN, 5 * MIN, T0)).toBe(T0)
    expect(snapTime(T0 + 2.6 * MIN, 5 * MIN, T0)).toBe(T0 + 5 * MIN)
  })

  it('places a drawing in view for the keyboard: a ray at the last price, a trend line rising', () => {
    const view = { tMin: T0, tMax: T0 + 100 * MIN, pMin: 90, pMax: 110, last: 104 }
    const snap = (t: number): number => snapTime(t, 5 * MIN, T0)
    const ray = placedInView('ray', 'a', view, snap)
    expect(ray).toMatchObject({ line: { shape: 'ray', from: { t: T0 + 50 * MIN, price: 104 } } })
    const trend = placedInView('trend', 't', view, snap)
    expect(trend?.kind === 'line' && trend.line.shape === 'trend' && trend.line.a.price).toBe(97)
    expect(trend?.kind === 'line' && lineAt(trend.line, T0 + 70 * MIN)).toBe(103)
  })
})

describe('arrow keys on a drawing', () => {
  const trend: Drawing = {
    kind: 'line',
    id: 't',
    line: { shape: 'trend', a: { t: T0, price: 10 }, b: { t: T0 + 60 * MIN, price: 12 } },
  }

  it('move the whole drawing by a price step or a bar, ten with Shift', () => {
    expect(keyMoved(trend, 'whole', { key: 'ArrowUp', shiftKey: false }, steps, 0)).toMatchObject({
      line: { a: { price: 10.5 }, b: { price: 12.5 } },
    })
    expect(keyMoved(trend, 'whole', { key: 'ArrowRight', shiftKey: true }, steps, 0)).toMatchObject(
      {
        line: { a: { t: T0 + 50 * MIN }, b: { t: T0 + 110 * MIN } },
      },
    )
  })

  it('move one point, the other staying; points that pass swap to keep the order', () => {
    const moved = keyMoved(trend, 'b', { key: 'ArrowDown', shiftKey: false }, steps, 0)
    expect(moved).toMatchObject({
      line: { a: { t: T0, price: 10 }, b: { t: T0 + 60 * MIN, price: 11.5 } },
    })
    const passed = keyMoved(
      trend,
      'a',
      { key: 'ArrowRight', shiftKey: true },
      { ...steps, barMs: 7 * MIN },
      0,
    )
    expect(passed).toMatchObject({
      line: { a: { t: T0 + 60 * MIN }, b: { t: T0 + 70 * MIN, price: 10 } },
    })
  })

  it('refuse a move to a price at zero, and ignore keys that are not arrows', () => {
    const low: Drawing = { kind: 'line', id: 'h', line: { shape: 'hline', price: 0.5 } }
    expect(keyMoved(low, 'whole', { key: 'ArrowDown', shiftKey: false }, steps, 0)).toBeNull()
    expect(keyMoved(low, 'whole', { key: 'a', shiftKey: false }, steps, 0)).toBeNull()
  })
})

describe('undo and redo', () => {
  it('go back and forth through whole lists; a new change clears the redo', () => {
    const h = new DrawingHistory()
    const a: Drawing[] = []
    const b: Drawing[] = [{ kind: 'line', id: 'h', line: { shape: 'hline', price: 1 } }]
    h.record(a)
    expect(h.undo(b)).toBe(a)
    expect(h.redo(a)).toBe(b)
    h.record(b)
    expect(h.canRedo).toBe(false)
    expect(h.undo([])).toBe(b)
    expect(h.undo(b)).toBe(a)
    expect(h.undo(a)).toBeNull()
  })
})
