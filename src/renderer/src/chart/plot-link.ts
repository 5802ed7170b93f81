/**
 * What the price plot shares with the panes under it (the RSI pane): its x range, so both show
 * the same bars, and the widths of its axes, so both plots line up to the pixel. The price plot
 * writes; a pane follows and gets its stop function back. Plain data, no uPlot: a pane reads it
 * when it is made and follows it from then on.
 */
export interface XRange {
  min: number
  max: number
}

export interface AxisLayout {
  /** Width of the price axis on the left (the pane's 0..100 axis copies it). */
  left: number
  /** Width of the percent axis on the right (0 without a compare line). */
  right: number
  /** The plot's whole width in CSS pixels. */
  width: number
}

export class PlotLink {
  x: XRange | null = null
  layout: AxisLayout = { left: 50, right: 0, width: 640 }
  private readonly xFollowers = new Set<(x: XRange) => void>()
  private readonly layoutFollowers = new Set<(layout: AxisLayout) => void>()

  setX(min: number, max: number): void {
    this.x = { min, max }
    for (const f of this.xFollowers) f(this.x)
  }

  /** The price plot drew: a layout change (axis widths, width) is passed on, the same one not. */
  setLayout(left: number, right: number, width: number): void {
    const l = this.layout
    if (l.left === left && l.right === right && l.width === width) return
    this.layout = { left, right, width }
    for (const f of this.layoutFollowers) f(this.layout)
  }

  followX(fn: (x: XRange) => void): () => void {
    this.xFollowers.add(fn)
    return () => this.xFollowers.delete(fn)
  }

  followLayout(fn: (layout: AxisLayout) => void): () => void {
    this.layoutFollowers.add(fn)
    return () => this.layoutFollowers.delete(fn)
  }
}
