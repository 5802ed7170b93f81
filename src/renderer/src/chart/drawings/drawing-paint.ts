import type uPlot from 'uplot'
import type { Drawing } from '../../../../shared/drawings/drawing'
import { shapeOf, type PlotFrame } from './drawing-screen'

/** The drawings' colour on every chart (the detail chart's layer sets it as --drawing too). */
export const DRAWING_COLOUR = '#8b5cf6'

/**
 * Drawings on a plot's canvas, a uPlot draw hook: the wall's tiles show the lines and ranges the
 * trader drew on the symbol's chart, at the same prices and moments (drawing-screen.ts), read at
 * a glance (no grips, no focus: a tile opens the detail chart to edit them).
 */
export function strokeDrawings(
  u: uPlot,
  drawings: readonly Drawing[],
  colour = DRAWING_COLOUR,
): void {
  if (drawings.length === 0) return
  const { left, top, width, height } = u.bbox
  const frame: PlotFrame = {
    width,
    height,
    x: (t) => u.valToPos(t / 1000, 'x', true) - left,
    y: (price) => u.valToPos(price, 'y', true) - top,
  }
  const ctx = u.ctx
  ctx.save()
  ctx.beginPath()
  ctx.rect(left, top, width, height)
  ctx.clip()
  ctx.translate(left, top)
  ctx.strokeStyle = colour
  ctx.fillStyle = colour
  ctx.lineWidth = Math.max(1, devicePixelRatioOf())
  for (const d of drawings) {
    const s = shapeOf(d, frame)
    ctx.beginPath()
    if (s.kind === 'segment') {
      ctx.moveTo(s.x1, s.y1)
      ctx.lineTo(s.x2, s.y2)
      ctx.stroke()
    } else {
      ctx.globalAlpha = 0.12
      ctx.fillRect(s.x, s.y, s.w, s.h)
      ctx.globalAlpha = 1
      ctx.strokeRect(s.x, s.y, s.w, s.h)
    }
  }
  ctx.restore()
}

function devicePixelRatioOf(): number {
  return typeof devicePixelRatio === 'number' ? devicePixelRatio : 1
}
