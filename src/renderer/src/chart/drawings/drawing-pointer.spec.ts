import { describe, expect, it } from 'vitest'
import type { Drawing } from '../../../../shared/drawings/drawing'
import {
  pointerStep,
  type PointerEffect,
  type PointerEvent_,
  type PointerState,
} from './drawing-pointer'

const T0 = Date.UTC(2026, 10, 30, 9)
const p = (min: number, price: number) => ({ t: T0 + min * 60_000, price })

function play(events: PointerEvent_[]): { state: PointerState; effects: PointerEffect[] } {
  let state: PointerState = { kind: 'idle' }
  const effects: PointerEffect[] = []
  for (const e of events) {
    const step = pointerStep(state, e)
    state = step.state
    effects.push(step.effect)
  }
  return { state, effects }
}

describe('the drawing pointer', () => {
  it('draws a trend line by dragging from one point to the other', () => {
    const { state, effects } = play([
      { type: 'down', tool: 'trend', p: p(0, 1), x: 10, y: 50, id: 't1' },
      { type: 'move', p: p(5, 2) },
      { type: 'up', p: p(10, 3), x: 90, y: 20, id: 't1' },
    ])
    expect(state.kind).toBe('idle')
    expect(effects[1]?.kind).toBe('preview')
    expect(effects[2]).toEqual({
      kind: 'made',
      drawing: { kind: 'line', id: 't1', line: { shape: 'trend', a: p(0, 1), b: p(10, 3) } },
    })
  })

  it('draws a range with two clicks, previewing it between them', () => {
    const { state, effects } = play([
      { type: 'down', tool: 'range', p: p(0, 1), x: 10, y: 50, id: 'r' },
      { type: 'up', p: p(0, 1), x: 11, y: 50, id: 'r' },
      { type: 'move', p: p(20, 4) },
      { type: 'down', tool: 'range', p: p(20, 4), x: 120, y: 10, id: 'r' },
    ])
    expect(state.kind).toBe('idle')
    expect(effects[2]).toMatchObject({ kind: 'preview', drawing: { kind: 'range' } })
    expect(effects[3]).toMatchObject({ kind: 'made', drawing: { range: { low: 1, high: 4 } } })
  })

  it('makes a horizontal line with one click, and nothing in the select tool', () => {
    expect(
      play([{ type: 'down', tool: 'hline', p: p(0, 7), x: 0, y: 0, id: 'h' }]).effects[0],
    ).toEqual({
      kind: 'made',
      drawing: { kind: 'line', id: 'h', line: { shape: 'hline', price: 7 } },
    })
    expect(
      play([{ type: 'down', tool: 'cursor', p: p(0, 7), x: 0, y: 0, id: 'h' }]).effects[0]?.kind,
    ).toBe('none')
  })

  it('drags a whole drawing by the pointer’s move, then settles it', () => {
    const d: Drawing = { kind: 'line', id: 'r', line: { shape: 'ray', from: p(0, 10) } }
    const { effects } = play([
      { type: 'grab', drawing: d, grip: 'whole', p: p(3, 11) },
      { type: 'move', p: p(8, 12) },
      { type: 'up', p: p(8, 12), x: 0, y: 0, id: '' },
    ])
    expect(effects[1]).toEqual({
      kind: 'moved',
      drawing: { ...d, line: { shape: 'ray', from: p(5, 11) } },
    })
    expect(effects[2]).toEqual({ kind: 'settled' })
  })

  it('is cancelled by Escape while placing: nothing made', () => {
    const { state, effects } = play([
      { type: 'down', tool: 'trend', p: p(0, 1), x: 10, y: 50, id: 't' },
      { type: 'cancel' },
    ])
    expect(state.kind).toBe('idle')
    expect(effects[1]).toEqual({ kind: 'preview', drawing: null })
  })
})
