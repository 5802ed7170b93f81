import { describe, expect, it } from 'vitest'
import { fxPairsFor, fxRate, listTotals, lotFigures, rowFigures, toBase } from './pnl'
import type { Lot } from './position'

const lot = (over: Partial<Lot> & Pick<Lot, 'key' | 'qty' | 'cost'>): Lot => ({
  id: over.id ?? `${over.key}-${over.qty}`,
  date: null,
  fee: 0,
  addedAt: 0,
  ...over,
})

describe('lotFigures', () => {
  it('values a long lot: P&L = qty x (last - cost), percent of cost, fees apart, day P&L from the previous close', () => {
    const f = lotFigures(lot({ key: 'hk:00700', qty: 200, cost: 350, fee: 30 }), {
      last: 380,
      prevClose: 375,
    })
    expect(f).toMatchObject({ value: 76_000, costValue: 70_000, pnl: 6_000, netPnl: 5_970 })
    expect(f.pnlPct).toBeCloseTo(8.5714, 3)
    expect(f.dayPnl).toBe(1_000)
  })

  it('values a short lot (negative quantity): a falling price is a gain', () => {
    const f = lotFigures(lot({ key: 'crypto:BTCUSDT', qty: -0.5, cost: 70_000, fee: 5 }), {
      last: 66_000,
      prevClose: 68_000,
    })
    expect(f.value).toBe(-33_000)
    expect(f.pnl).toBe(2_000)
    expect(f.pnlPct).toBeCloseTo(5.714, 2)
    expect(f.netPnl).toBe(1_995)
    expect(f.dayPnl).toBe(1_000)
  })

  it('takes the day P&L of a lot opened today from its cost, not the previous close', () => {
    const l = lot({ key: 'cn:600519', qty: 100, cost: 1_590, date: '2026-03-10' })
    expect(lotFigures(l, { last: 1_600, prevClose: 1_550 }, '2026-03-10').dayPnl).toBe(1_000)
    expect(lotFigures(l, { last: 1_600, prevClose: 1_550 }, '2026-03-11').dayPnl).toBe(5_000)
  })

  it('leaves every price figure null without a last price, and day P&L null without a previous close', () => {
    const l = lot({ key: 'fx:EURUSD', qty: 1_000, cost: 1.08 })
    expect(lotFigures(l, undefined)).toMatchObject({
      value: null,
      pnl: null,
      pnlPct: null,
      dayPnl: null,
    })
    expect(lotFigures(l, { last: 1.1, prevClose: null }).dayPnl).toBeNull()
    expect(
      lotFigures(lot({ key: 'fx:EURUSD', qty: 5, cost: 0 }), { last: 1, prevClose: 1 }).pnlPct,
    ).toBeNull()
  })
})

describe('rowFigures', () => {
  it('adds several lots of one symbol: net quantity, average cost, fees and P&L', () => {
    const lots = [
      lot({ id: 'a', key: 'hk:00700', qty: 100, cost: 300, fee: 10 }),
      lot({ id: 'b', key: 'hk:00700', qty: 300, cost: 400, fee: 20 }),
      lot({ id: 'c', key: 'hk:09988', qty: 50, cost: 80 }),
    ]
    const r = rowFigures('hk:00700', lots, { last: 380, prevClose: 370 })
    expect(r.lots.map((l) => l.id)).toEqual(['a', 'b'])
    expect(r).toMatchObject({ qty: 400, avgCost: 375, fees: 30, value: 152_000, pnl: 2_000 })
    expect(r.netPnl).toBe(1_970)
    expect(r.dayPnl).toBe(4_000)
    expect(r.pnlPct).toBeCloseTo((2_000 / 150_000) * 100, 6)
  })

  it('nets a long and a short lot of one symbol', () => {
    const lots = [
      lot({ id: 'l', key: 'fx:EURUSD', qty: 1_000, cost: 1.05 }),
      lot({ id: 's', key: 'fx:EURUSD', qty: -1_000, cost: 1.1 }),
    ]
    const r = rowFigures('fx:EURUSD', lots, { last: 1.08, prevClose: 1.07 })
    expect(r.qty).toBe(0)
    expect(r.avgCost).toBeNull()
    expect(r.pnl).toBeCloseTo(50, 9)
    expect(r.dayPnl).toBeCloseTo(0, 9)
  })
})

describe('FX conversion and list totals', () => {
  const fx = new Map([
    ['USDHKD', 7.8],
    ['USDCNH', 7.2],
    ['EURUSD', 1.1],
  ])

  it('finds a rate either way round, through USD, and says CNH stood in for CNY', () => {
    expect(fxRate('USD', 'HKD', fx)).toEqual({ rate: 7.8, via: ['fx:USDHKD'] })
    expect(fxRate('HKD', 'USD', fx)?.rate).toBeCloseTo(1 / 7.8, 12)
    expect(fxRate('EUR', 'HKD', fx)).toEqual({ rate: 1.1 * 7.8, via: ['fx:EURUSD', 'fx:USDHKD'] })
    expect(fxRate('CNY', 'USD', fx)).toEqual({ rate: 1 / 7.2, via: ['fx:USDCNH', 'CNH for CNY'] })
    expect(fxRate('USDT', 'USD', fx)).toBeNull()
    expect(fxPairsFor(['HKD', 'USD'], 'USD')).toEqual(['HKDUSD', 'USDHKD'])
  })

  it('totals in the base currency and keeps the part without an FX quote apart, never 1:1', () => {
    const lots = [
      lot({ key: 'hk:00700', qty: 100, cost: 350, fee: 39 }),
      lot({ key: 'cn:600519', qty: 10, cost: 1_500 }),
      lot({ key: 'crypto:BTCUSDT', qty: 1, cost: 60_000 }),
      lot({ key: 'index:SPX', qty: 1, cost: 5_000 }),
    ]
    const rows = [
      { row: rowFigures('hk:00700', lots, { last: 390, prevClose: 380 }), currency: 'HKD' },
      { row: rowFigures('cn:600519', lots, { last: 1_620, prevClose: 1_600 }), currency: 'CNY' },
      {
        row: rowFigures('crypto:BTCUSDT', lots, { last: 65_000, prevClose: 64_000 }),
        currency: 'USDT',
      },
      { row: rowFigures('index:SPX', lots, undefined), currency: 'USD' },
    ]
    const t = listTotals(rows, 'USD', fx)
    expect(t.rows).toBe(2)
    expect(t.value).toBeCloseTo(39_000 / 7.8 + 16_200 / 7.2, 9)
    expect(t.pnl).toBeCloseTo(4_000 / 7.8 + 1_200 / 7.2, 9)
    expect(t.fees).toBeCloseTo(39 / 7.8, 9)
    expect(t.dayPnl).toBeCloseTo(1_000 / 7.8 + 200 / 7.2, 9)
    expect(t.unpriced).toEqual(['index:SPX'])
    expect(t.unconverted).toEqual([
      {
        currency: 'USDT',
        keys: ['crypto:BTCUSDT'],
        value: 65_000,
        pnl: 5_000,
        netPnl: 5_000,
        dayPnl: 1_000,
        fees: 0,
      },
    ])
    const btc = toBase(rows[2]!.row, 'USDT', 'USD', fx)
    expect(btc).toMatchObject({ converted: false, reason: 'NO_FX_RATE' })
  })
})
