import { describe, expect, it } from 'vitest'
import type { SymbolStatus } from '../../shared/quote'
import { SymbolStatusBook } from './symbol-statuses'

const refused = (key: string): SymbolStatus => ({ key, code: 'UNKNOWN_SYMBOL', message: 'no' })

describe('SymbolStatusBook', () => {
  it('a price clears a problem, however problems came and went before it', () => {
    const book = new SymbolStatusBook(() => true)
    const heard: string[] = []
    book.onChange((s) => heard.push(`${s.key} ${s.code}`))
    book.set(refused('crypto:A'))
    book.set(refused('crypto:B'))
    book.priced('crypto:A')
    book.set(refused('crypto:A'))
    book.set(refused('crypto:C'))
    book.delete('crypto:C')
    book.priced('crypto:B')
    book.priced('crypto:A')
    expect(book.all().map((s) => s.code)).toEqual(['OK', 'OK'])
    book.set(refused('crypto:D'))
    book.priced('crypto:D')
    expect(heard.slice(-2)).toEqual(['crypto:D UNKNOWN_SYMBOL', 'crypto:D OK'])
  })

  it('a price for a symbol without a problem changes nothing and tells no one', () => {
    const book = new SymbolStatusBook(() => true)
    const heard: SymbolStatus[] = []
    book.onChange((s) => heard.push(s))
    book.set(refused('crypto:A'))
    book.priced('crypto:B')
    expect(book.all()).toEqual([refused('crypto:A')])
    expect(heard).toHaveLength(1)
  })
})
