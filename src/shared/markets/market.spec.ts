import { describe, expect, it } from 'vitest'
import { parseSymbolKey, symbolKey, symbolOfKey } from './market'

describe('symbol keys', () => {
  it("gives a key's symbol, the part a title or the strip shows", () => {
    expect(symbolOfKey('crypto:BTCUSDT')).toBe('BTCUSDT')
    expect(symbolOfKey('usdt-futures:BTCUSDT')).toBe('BTCUSDT')
    expect(symbolOfKey('hk:00700')).toBe('00700')
  })

  it('splits at the first colon only, and gives the whole text of a key with no market', () => {
    expect(symbolOfKey('fx:EUR:USD')).toBe('EUR:USD')
    expect(symbolOfKey('BTCUSDT')).toBe('BTCUSDT')
  })

  it('agrees with parseSymbolKey on every key symbolKey writes', () => {
    for (const key of [
      symbolKey('agri', 'LE1!'),
      symbolKey('index', 'SPX'),
      symbolKey('cn', '600519'),
    ])
      expect(symbolOfKey(key)).toBe(parseSymbolKey(key)?.symbol)
  })
})
