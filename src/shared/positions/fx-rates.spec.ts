import { describe, expect, it } from 'vitest'
import { fxKeysFor, fxQuotesOf } from './position-report'
import { fxRate, pairKey } from './fx-rates'
import { listTotals, type RowFigures } from './pnl'

const row = (key: string, value: number): RowFigures =>
  ({ key, value, pnl: 0, netPnl: 0, dayPnl: 0, fees: 0 }) as unknown as RowFigures

describe('stablecoin rates', () => {
  it('takes USDT and USDC through the service quotes, USDC through USDT when that is all there is', () => {
    const fx = fxQuotesOf([
      { key: 'crypto:USDTUSD', last: 0.9995 },
      { key: 'crypto:USDCUSDT', last: 1.0003 },
      { key: 'crypto:BTCUSDT', last: 84_000 },
      { key: 'fx:EURUSD', last: 1.08 },
    ])
    expect([...fx.keys()].sort()).toEqual(['EURUSD', 'USDCUSDT', 'USDTUSD'])
    expect(fxRate('USDT', 'USD', fx)).toEqual({ rate: 0.9995, via: ['crypto:USDTUSD'] })
    const usdc = fxRate('USDC', 'USD', fx)
    expect(usdc?.rate).toBeCloseTo(1.0003 * 0.9995, 12)
    expect(usdc?.via).toEqual(['crypto:USDCUSDT', 'crypto:USDTUSD'])
    expect(fxRate('USDT', 'EUR', fx)?.via).toEqual(['crypto:USDTUSD', 'fx:EURUSD'])
  })

  it('never counts a stablecoin 1:1 unless the trader set the peg, and then says so', () => {
    const none = new Map<string, number>()
    expect(fxRate('USDT', 'USD', none)).toBeNull()
    expect(fxRate('USDT', 'USD', none, { peg: true })).toEqual({
      rate: 1,
      via: ['USDT at 1.00 USD (peg you set)'],
    })
    // A quote the service has wins over the peg.
    const quoted = new Map([['USDTUSD', 0.999]])
    expect(fxRate('USDT', 'USD', quoted, { peg: true })?.via).toEqual(['crypto:USDTUSD'])
    const rows = [{ row: row('crypto:ETHUSDT', 6400), currency: 'USDT' }]
    expect(listTotals(rows, 'USD', none).unconverted).toHaveLength(1)
    const pegged = listTotals(rows, 'USD', none, { peg: true })
    expect(pegged).toMatchObject({ rows: 1, value: 6400, pegs: ['USDT at 1.00 USD (peg you set)'] })
  })

  it('asks for the stablecoin pairs on the crypto market', () => {
    expect(pairKey('USDTUSD')).toBe('crypto:USDTUSD')
    expect(pairKey('USDHKD')).toBe('fx:USDHKD')
    const lots = [
      { key: 'crypto:ETHUSDT', qty: 2, cost: 3000, date: null, fee: 0, id: 'a', addedAt: 1 },
    ]
    const listed = new Set(['crypto:USDTUSD', 'crypto:USDCUSDT', 'fx:EURUSD'])
    expect(
      fxKeysFor(
        lots,
        () => 'USDT',
        'USD',
        (k) => listed.has(k),
      ),
    ).toEqual(['crypto:USDTUSD'])
  })
})
