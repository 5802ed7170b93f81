import { describe, expect, it } from 'vitest'
import { prepareSymbolOrder, sortKeys, symbolOrder } from './sort'

const keys = ['hk:00700', 'crypto:ETHUSDT', 'fx:EURUSD', 'crypto:BTCUSDT', 'index:SPX']

describe('symbolOrder', () => {
  it('is the collator order of sortKeys, and its reverse for descending', () => {
    const byKey = (key: string): string => key
    expect(symbolOrder(keys, 'ascending')).toEqual(
      sortKeys(keys, { column: 'symbol', direction: 'ascending' }, byKey),
    )
    expect(symbolOrder(keys, 'descending')).toEqual(
      sortKeys(keys, { column: 'symbol', direction: 'descending' }, byKey),
    )
  })

  it('sorts a list once: prepared ahead, a header click gets the same array', () => {
    const list = [...keys]
    prepareSymbolOrder(list)
    const first = symbolOrder(list, 'ascending')
    expect(symbolOrder(list, 'ascending')).toBe(first)
    // Another array (the list changed) is sorted anew.
    expect(symbolOrder([...list, 'cn:600519'], 'ascending')).not.toBe(first)
  })
})
