import { describe, expect, it } from 'vitest'
import {
  PixelCandles,
  candleBodyWidth,
  groupCandlesByPixel,
  type CandleSource,
} from './pixel-candles'

function bars(rows: Array<[t: number, o: number, h: number, l: number, c: number, v: number]>) {
  const src: CandleSource & { [k: string]: number[] } = {
    times: rows.map((r) => r[0]),
    opens: rows.map((r) => r[1]),
    highs: rows.map((r) => r[2]),
    lows: rows.map((r) => r[3]),
    closes: rows.map((r) => r[4]),
    volumes: rows.map((r) => r[5]),
  }
  return src
}

function columns(g: PixelCandles): number[][] {
  const out: number[][] = []
  for (let i = 0; i < g.count; i++)
    out.push([g.x[i]!, g.open[i]!, g.high[i]!, g.low[i]!, g.close[i]!, g.volume[i]!])
  return out
}

/** All the rows grouped on an axis, into a fresh PixelCandles. */
function groupAll(
  rows: Parameters<typeof bars>[0],
  axis: Parameters<typeof groupCandlesByPixel>[3],
) {
  return groupCandlesByPixel(bars(rows), 0, rows.length - 1, axis, new PixelCandles())
}

describe('groupCandlesByPixel', () => {
  it('merges bars in one pixel column into one OHLC bar: first open, max high, min low, last close', () => {
    // 0.25 px per time unit: times 0 and 1 land in column 0, time 2 in column 1, time 8 in 2.
    const g = groupAll(
      [
        [0, 10, 12, 9, 11, 5],
        [1, 11, 15, 10, 14, 7],
        [2, 14, 14, 8, 9, 3],
        [8, 9, 10, 8.5, 9.5, 4],
      ],
      { left: 0, min: 0, pxPerUnit: 0.25 },
    )
    expect(columns(g)).toEqual([
      [0, 10, 15, 9, 14, 7],
      [1, 14, 14, 8, 9, 3],
      [2, 9, 10, 8.5, 9.5, 4],
    ])
  })

  it('keeps every bar when bars are at least a pixel apart (a zoomed-in chart loses nothing)', () => {
    const g = groupAll(
      [
        [0, 1, 2, 0, 1.5, 1],
        [60, 1.5, 3, 1, 2, 1],
        [120, 2, 2.5, 1.8, 1.9, 1],
      ],
      { left: 10, min: 0, pxPerUnit: 0.1 },
    )
    expect(columns(g).map((c) => c[0])).toEqual([10, 16, 22])
    expect(g.count).toBe(3)
  })

  it('bounds 100k bars on a 1000 px axis to at most ~1000 columns with the overall extremes kept', () => {
    const n = 100_000
    const rows: Array<[number, number, number, number, number, number]> = []
    for (let i = 0; i < n; i++) rows.push([i * 60, 100, 100 + (i === 54_321 ? 50 : 1), 99, 100, 1])
    rows[77_777] = [77_777 * 60, 100, 101, 20, 100, 1]
    const src = bars(rows)
    const g = groupCandlesByPixel(
      src,
      0,
      n - 1,
      { left: 0, min: 0, pxPerUnit: 1000 / ((n - 1) * 60) },
      new PixelCandles(),
    )
    expect(g.count).toBeLessThanOrEqual(1001)
    expect(Math.max(...g.high.subarray(0, g.count))).toBe(150)
    expect(Math.min(...g.low.subarray(0, g.count))).toBe(20)
  })

  it('skips bars with a missing price (a gap) and only reads the given index range', () => {
    const src: CandleSource = {
      times: [0, 10, 20, 30],
      opens: [1, null, 3, 4],
      highs: [1, 2, 3, 4],
      lows: [1, 2, 3, 4],
      closes: [1, 2, 3, 4],
      volumes: [1, 1, 1, 1],
    }
    const g = groupCandlesByPixel(src, 1, 2, { left: 0, min: 0, pxPerUnit: 1 }, new PixelCandles())
    expect(columns(g)).toEqual([[20, 3, 3, 3, 3, 1]])
  })
})

describe('groupCandlesByPixel: its buffer', () => {
  it('reuses its buffer: a smaller second grouping does not keep columns of the first', () => {
    const buffer = new PixelCandles()
    const src = bars([
      [0, 1, 1, 1, 1, 1],
      [10, 2, 2, 2, 2, 1],
    ])
    groupCandlesByPixel(src, 0, 1, { left: 0, min: 0, pxPerUnit: 1 }, buffer)
    const x = buffer.x
    groupCandlesByPixel(src, 1, 1, { left: 0, min: 0, pxPerUnit: 1 }, buffer)
    expect(buffer.count).toBe(1)
    expect(buffer.x).toBe(x)
  })
})

describe('candleBodyWidth', () => {
  it('is 60 % of the spacing, at least one pixel and at most 12', () => {
    expect(candleBodyWidth(0.01)).toBe(1)
    expect(candleBodyWidth(10)).toBe(6)
    expect(candleBodyWidth(100)).toBe(12)
  })
})
