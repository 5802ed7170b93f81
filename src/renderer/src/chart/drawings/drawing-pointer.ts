import type { Drawing, Point } from '../../../../shared/drawings/drawing'
import { shifted, withAnchor } from '../../../../shared/drawings/drawing-geometry'
import { drawingFrom, onePoint, type Grip, type Tool } from './drawing-edit'

/**
 * The pointer on the drawing layer, as one state machine: drawing a new line or range, and
 * dragging a drawing or one of its points.
 *
 *   idle    --down, a one-point tool------------------------------> idle (made: a line, a ray)
 *   idle    --down, a two-point tool----------------------------> placing (first point)
 *   placing --move------------------------------------------------> placing (preview to here)
 *   placing --up, dragged at least DRAG_PX-------------------------> idle (made)
 *   placing --up, not dragged--------------------------------------> second (awaits a click)
 *   second  --move------------------------------------------------> second (preview to here)
 *   second  --down-------------------------------------------------> idle (made)
 *   idle    --grab (down on a drawing or one of its points)--------> moving
 *   moving  --move------------------------------------------------> moving (moved, not saved)
 *   moving  --up / cancel------------------------------------------> idle (settled: saved)
 *   any     --cancel (Escape, the tool changed)--------------------> idle (nothing made)
 */
export type PointerState =
  | { kind: 'idle' }
  | { kind: 'placing'; tool: Tool; p1: Point; p2: Point; x: number; y: number }
  | { kind: 'second'; tool: Tool; p1: Point; p2: Point }
  | { kind: 'moving'; grip: Grip; origin: Point; original: Drawing }

export type PointerEvent_ =
  | { type: 'down'; tool: Tool; p: Point; x: number; y: number; id: string }
  | { type: 'grab'; drawing: Drawing; grip: Grip; p: Point }
  | { type: 'move'; p: Point }
  | { type: 'up'; p: Point; x: number; y: number; id: string }
  | { type: 'cancel' }

/** What the layer does after a step: show a preview, make a drawing, move one, or settle it. */
export type PointerEffect =
  | { kind: 'none' }
  | { kind: 'preview'; drawing: Drawing | null }
  | { kind: 'made'; drawing: Drawing }
  | { kind: 'moved'; drawing: Drawing }
  | { kind: 'settled' }

/** A press that travels less than this is a click (a second click places the second point). */
export const DRAG_PX = 5

const NONE: PointerEffect = { kind: 'none' }
const IDLE: PointerState = { kind: 'idle' }

export function pointerStep(
  s: PointerState,
  e: PointerEvent_,
): { state: PointerState; effect: PointerEffect } {
  if (e.type === 'cancel')
    return {
      state: IDLE,
      effect: s.kind === 'moving' ? { kind: 'settled' } : { kind: 'preview', drawing: null },
    }
  switch (s.kind) {
    case 'idle':
      return fromIdle(e)
    case 'placing':
    case 'second':
      return whilePlacing(s, e)
    case 'moving':
      return whileMoving(s, e)
  }
}

function fromIdle(e: PointerEvent_): { state: PointerState; effect: PointerEffect } {
  if (e.type === 'grab')
    return {
      state: { kind: 'moving', grip: e.grip, origin: e.p, original: e.drawing },
      effect: NONE,
    }
  if (e.type !== 'down' || e.tool === 'cursor') return { state: IDLE, effect: NONE }
  if (onePoint(e.tool)) {
    const made = drawingFrom(e.tool, e.id, e.p)
    return { state: IDLE, effect: made === null ? NONE : { kind: 'made', drawing: made } }
  }
  const placing: PointerState = { kind: 'placing', tool: e.tool, p1: e.p, p2: e.p, x: e.x, y: e.y }
  return { state: placing, effect: NONE }
}

function whilePlacing(
  s: Extract<PointerState, { kind: 'placing' | 'second' }>,
  e: PointerEvent_,
): { state: PointerState; effect: PointerEffect } {
  if (e.type === 'move') {
    const next = { ...s, p2: e.p }
    return {
      state: next,
      effect: { kind: 'preview', drawing: drawingFrom(s.tool, 'preview', s.p1, e.p) },
    }
  }
  const finishing =
    (s.kind === 'placing' && e.type === 'up' && Math.hypot(e.x - s.x, e.y - s.y) >= DRAG_PX) ||
    (s.kind === 'second' && e.type === 'down')
  if (finishing && (e.type === 'up' || e.type === 'down')) {
    const made = drawingFrom(s.tool, e.id, s.p1, e.p)
    // Two points that make nothing (one moment, no height): wait for a better second point.
    if (made === null)
      return { state: { kind: 'second', tool: s.tool, p1: s.p1, p2: e.p }, effect: NONE }
    return { state: IDLE, effect: { kind: 'made', drawing: made } }
  }
  if (s.kind === 'placing' && e.type === 'up')
    return { state: { kind: 'second', tool: s.tool, p1: s.p1, p2: e.p }, effect: NONE }
  return { state: s, effect: NONE }
}

function whileMoving(
  s: Extract<PointerState, { kind: 'moving' }>,
  e: PointerEvent_,
): { state: PointerState; effect: PointerEffect } {
  if (e.type === 'up') return { state: IDLE, effect: { kind: 'settled' } }
  if (e.type !== 'move') return { state: s, effect: NONE }
  const moved =
    s.grip === 'whole'
      ? shifted(s.original, e.p.t - s.origin.t, e.p.price - s.origin.price)
      : withAnchor(s.original, s.grip, e.p)
  return { state: s, effect: moved === null ? NONE : { kind: 'moved', drawing: moved } }
}
