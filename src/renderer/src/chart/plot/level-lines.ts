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

/**
 * The previous close as a dotted line with its words at the left ("prev close 1.0842"): where
 * the day started from, drawn from the quote (no call). Off the scale's range it is not drawn.
 */
export function strokePrevClose(
  u: uPlot,
  price: number | null,
  style: { colour: string; text: string },
): void {
  if (price === null) return
  const y = u.valToPos(price, 'y', true)
  const { left, top, width, height } = u.bbox
  if (!(y >= top && y <= top + height)) return
  const ctx = u.ctx
  const r = uPlot.pxRatio
  ctx.save()
  ctx.setLineDash([2 * r, 3 * r])
  ctx.strokeStyle = style.colour
  ctx.lineWidth = r
  ctx.beginPath()
  ctx.moveTo(left, Math.round(y) + 0.5)
  ctx.lineTo(left + width, Math.round(y) + 0.5)
  ctx.stroke()
  if (style.text !== '') {
    ctx.fillStyle = style.colour
    ctx.font = `${10 * r}px sans-serif`
    ctx.textBaseline = 'bottom'
    ctx.fillText(style.text, left + 4 * r, y - 2 * r)
  }
  ctx.restore()
}
