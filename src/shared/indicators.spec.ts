import { describe, expect, it } from 'vitest'
import { ema, rsi, sma, vwap } from './indicators'

const round = (line: Array<number | null>, places = 4): Array<number | null> =>
  line.map((v) => (v === null ? null : Number(v.toFixed(places))))

describe('sma', () => {
  it('is the mean of the last n values, null before n values', () => {
    expect(sma([1, 2, 3, 4, 5], 3)).toEqual([null, null, 2, 3, 4])
  })
  it('is all null when there are fewer values than the period', () => {
    expect(sma([1, 2], 3)).toEqual([null, null])
  })
})

describe('ema', () => {
  it('is seeded with the SMA of the first n values, then k = 2 / (n + 1)', () => {
    // seed (2+4+6)/3 = 4; 4 + 0.5 x (8 - 4) = 6; 6 + 0.5 x (4 - 6) = 5
    expect(ema([2, 4, 6, 8, 4], 3)).toEqual([null, null, 4, 6, 5])
  })
  it('with period 4 (k = 0.4) follows the hand-computed values', () => {
    // seed 2.5; 2.5 + 0.4 x (10 - 2.5) = 5.5; 5.5 + 0.4 x (0 - 5.5) = 3.3
    expect(round(ema([1, 2, 3, 4, 10, 0], 4))).toEqual([null, null, null, 2.5, 5.5, 3.3])
  })
})

describe('rsi (Wilder smoothing)', () => {
  it('matches the hand-computed values for period 2', () => {
    // changes +2 -1 +2 -1 0; first averages gain 1, loss 0.5 (RS 2 -> 66.67), then Wilder:
    // gain (1 + 2) / 2 = 1.5, loss 0.5 / 2 = 0.25 (RS 6 -> 85.71); gain 0.75, loss 0.625 (54.55);
    // gain 0.375, loss 0.3125 (54.55). A simple average would read 66.67 at index 4.
    expect(round(rsi([10, 12, 11, 13, 12, 12], 2), 2)).toEqual([
      null,
      null,
      66.67,
      85.71,
      54.55,
      54.55,
    ])
  })
  it('reads 100 with no losses and 50 with no change', () => {
    expect(rsi([1, 2, 3, 4], 2).slice(2)).toEqual([100, 100])
    expect(rsi([5, 5, 5], 2)[2]).toBe(50)
  })
  it('stays within 0..100', () => {
    const closes = Array.from({ length: 200 }, (_, i) => 100 + 10 * Math.sin(i / 3) + (i % 7))
    for (const v of rsi(closes, 14)) if (v !== null) expect(v).toBeGreaterThanOrEqual(0)
    for (const v of rsi(closes, 14)) if (v !== null) expect(v).toBeLessThanOrEqual(100)
  })
})

describe('vwap', () => {
  it('weights the typical price by volume and restarts each UTC day', () => {
    const day = 86_400
    const times = [0, 3600, day, day + 3600]
    const highs = [12, 15, 21, 21]
    const lows = [9, 12, 18, 18]
    const closes = [9, 12, 21, 21]
    const volumes = [10, 30, 0, 5]
    // day 0: typical 10 x 10 = 100 -> 10; + 13 x 30 = 490 / 40 = 12.25
    // day 1: no volume yet -> no VWAP (not 0); then typical 20
    expect(vwap(times, highs, lows, closes, volumes)).toEqual([10, 12.25, null, 20])
  })
  it('takes another session boundary when given one', () => {
    const oneSession = (): number => 0
    expect(vwap([0, 86_400], [12, 15], [9, 12], [9, 12], [10, 30], oneSession)).toEqual([10, 12.25])
  })
})
