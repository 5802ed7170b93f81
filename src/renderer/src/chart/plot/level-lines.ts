import uPlot from 'uplot'

/**
 * Dashed horizontal lines across a plot at given values of a scale: the RSI pane's 30 and 70
 * guides, a wall tile's alert levels. A value off the scale's range is pinned to the plot's edge
 * (a level the trader set stays in sight). Drawn in a uPlot draw hook, on the canvas.
 */
export function strokeLevels(
  u: uPlot,
  levels: readonly number[],
  style: { scale: string; colour: string; dash: number[] },
): void {
  if (levels.length === 0) return
  const ctx = u.ctx
  const { left, top, width, height } = u.bbox
  ctx.save()
  ctx.setLineDash(style.dash)
  ctx.strokeStyle = style.colour
  ctx.lineWidth = uPlot.pxRatio
  for (const level of levels) {
    const at = u.valToPos(level, style.scale, true)
    const y = Math.round(Math.min(top + height - 1, Math.max(top + 1, at))) + 0.5
    ctx.beginPath()
    ctx.moveTo(left, y)
    ctx.lineTo(left + width, y)
    ctx.stroke()
  }
  ctx.restore()
}
