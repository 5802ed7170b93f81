import { describe, expect, it } from 'vitest'
import { parseCatalogue } from './instrument-catalogue'
import shipped from '../../shared/catalogue/instruments.json'
import { CurrencyTable } from './instrument-currency'

describe('CurrencyTable', () => {
  const table = new CurrencyTable()

  it('knows the quote currency of the shipped instruments, by pair or by venue', () => {
    expect(table.currencyOf('crypto:BTCUSDT')).toBe('USDT')
    expect(table.currencyOf('crypto:ETHBTC')).toBe('BTC')
    expect(table.currencyOf('usdt-futures:ETHUSDT')).toBe('USDT')
    expect(table.currencyOf('fx:USDJPY')).toBe('JPY')
    expect(table.currencyOf('commodity:XAUCNH')).toBe('CNH')
    expect(table.currencyOf('commodity:WTI')).toBe('USD')
    expect(table.currencyOf('cn:600519')).toBe('CNY')
    expect(table.currencyOf('hk:00700')).toBe('HKD')
    expect(table.currencyOf('index:HSI')).toBe('HKD')
    expect(table.currencyOf('index:SPX')).toBe('USD')
    expect(table.currencyOf('futures:FDAX1!')).toBe('EUR')
  })

  it("takes the trader's override first", () => {
    expect(table.currencyOf('hk:00700', { 'hk:00700': 'CNY' })).toBe('CNY')
  })

  it('has a currency for every instrument the catalogue ships', () => {
    const keys = parseCatalogue(shipped).map((i) => i.key)
    expect(keys.length).toBeGreaterThan(250)
    expect(keys.filter((k) => table.currencyOf(k) === null)).toEqual([])
  })
})
