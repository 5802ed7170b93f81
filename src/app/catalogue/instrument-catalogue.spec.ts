import { describe, expect, it } from 'vitest'
import { MARKETS } from '../../shared/markets/market'
import { INSTRUMENTS } from '../../sim/market/instruments'
import { InstrumentCatalogue, parseCatalogue } from './instrument-catalogue'
import shipped from '../../shared/catalogue/instruments.json'

const catalogue = new InstrumentCatalogue()
const keys = (query: string, limit = 12): string[] =>
  catalogue.search(query, limit).map((m) => m.key)

describe('the shipped instrument catalogue', () => {
  it('lists a few hundred instruments over every market of the spec, each key once', () => {
    const all = parseCatalogue(shipped)
    expect(all.length).toBeGreaterThan(200)
    expect(new Set(all.map((i) => i.key)).size).toBe(all.length)
    for (const market of MARKETS)
      expect(all.filter((i) => i.market === market).length).toBeGreaterThan(5)
    expect(all.every((i) => i.name.trim() !== '')).toBe(true)
  })

  it('knows every instrument the demo simulator serves, so demo search finds them', () => {
    const missing = INSTRUMENTS.map((i) => `${i.market}:${i.symbol}`).filter(
      (k) => !catalogue.has(k),
    )
    expect(missing).toEqual([])
  })

  it('refuses a catalogue entry that is not a symbol', () => {
    expect(() => parseCatalogue({ version: 1, markets: { crypto: [['bad code', 'x']] } })).toThrow(
      /not a symbol/,
    )
  })
})

describe('search by code or name', () => {
  it('offers commodity:XAUUSD first for "gold"', () => {
    expect(keys('gold')[0]).toBe('commodity:XAUUSD')
    expect(keys('gold')).toContain('futures:GC1!')
  })

  it('offers hk:00700 Tencent Holdings for "tencent", with market and full name', () => {
    expect(catalogue.search('tencent')[0]).toEqual({
      key: 'hk:00700',
      market: 'hk',
      symbol: '00700',
      name: 'Tencent Holdings',
      source: 'catalogue',
    })
  })

  it('finds codes: "600519", "btc" (spot before the perpetual), "es" (the continuous root)', () => {
    expect(keys('600519')[0]).toBe('cn:600519')
    expect(keys('btc').slice(0, 2)).toEqual(['crypto:BTCUSDT', 'usdt-futures:BTCUSDT'])
    expect(keys('es')[0]).toBe('futures:ES1!')
  })

  it('matches words inside names: "s&p" finds the index and its futures', () => {
    expect(keys('s&p')[0]).toBe('index:SPX')
    expect(keys('s&p')).toEqual(expect.arrayContaining(['futures:ES1!', 'futures:MES1!']))
    expect(keys('japanese yen')).toContain('futures:6J1!')
  })

  it('narrows to a market with "market:" and lists it when nothing follows', () => {
    expect(keys('hk:tencent')[0]).toBe('hk:00700')
    expect(keys('index:', 50).every((k) => k.startsWith('index:'))).toBe(true)
    expect(keys('index:', 50).length).toBeGreaterThan(10)
  })

  it('offers a typed market:SYMBOL it does not know last, as unchecked', () => {
    const found = catalogue.search('crypto:NEWCOIN')
    expect(found.at(-1)).toMatchObject({ key: 'crypto:NEWCOIN', source: 'unchecked' })
    expect(catalogue.search('crypto:btcusdt').filter((m) => m.source === 'unchecked')).toEqual([])
  })

  it('returns nothing for an empty query and respects the limit', () => {
    expect(catalogue.search('  ')).toEqual([])
    expect(catalogue.search('usd', 5)).toHaveLength(5)
  })
})

describe('resolving pasted entries and confirmed symbols', () => {
  it('takes market:SYMBOL as written and bare codes from the catalogue', () => {
    expect(catalogue.resolve('fx:eurusd')).toEqual({ ok: true, key: 'fx:EURUSD', known: true })
    expect(catalogue.resolve('crypto:NEWCOIN')).toEqual({
      ok: true,
      key: 'crypto:NEWCOIN',
      known: false,
    })
    expect(catalogue.resolve('600519')).toEqual({ ok: true, key: 'cn:600519', known: true })
    expect(catalogue.resolve('btcusdt')).toEqual({ ok: true, key: 'crypto:BTCUSDT', known: true })
  })

  it('explains what is wrong with an entry it cannot resolve', () => {
    expect(catalogue.resolve('AAPLX')).toMatchObject({ ok: false, code: 'NOT_FOUND' })
    expect(catalogue.resolve('stocks:AAPL')).toMatchObject({ ok: false, code: 'INVALID_INPUT' })
  })

  it('makes a confirmed symbol findable and known, once', () => {
    const own = new InstrumentCatalogue()
    expect(own.confirm('crypto:newcoin')).toBe(true)
    expect(own.confirm('crypto:NEWCOIN')).toBe(false)
    expect(own.confirmed()).toEqual(['crypto:NEWCOIN'])
    expect(own.search('newcoin')[0]).toMatchObject({ key: 'crypto:NEWCOIN', source: 'confirmed' })
    expect(own.resolve('NEWCOIN')).toEqual({ ok: true, key: 'crypto:NEWCOIN', known: true })
    expect(own.confirm('not a key')).toBe(false)
  })
})
