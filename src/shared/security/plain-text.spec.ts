import { describe, expect, it } from 'vitest'
import { isPlainText, plainText } from './plain-text'

describe('plain text from outside', () => {
  it('drops the escape sequences a terminal would obey, and keeps the words', () => {
    const clear = 'bad key\u001b[2J\u001b[H'
    const clipboard = 'x\u001b]52;c;ZWNobyBwd25lZA==\u0007y'
    expect(plainText(clear)).toBe('bad key[2J[H')
    expect(plainText(clipboard)).toBe('x]52;c;ZWNobyBwd25lZA==y')
    expect(plainText('row\rBTC 1.00')).toBe('rowBTC 1.00')
    expect(plainText('a\u009b31mb')).toBe('a31mb')
    expect(plainText('tab\there\nline')).toBe('tabhereline')
    expect(plainText('del\u007f')).toBe('del')
  })

  it('drops bidirectional overrides, and keeps accents, CJK and symbols', () => {
    expect(plainText('abc\u202edcba\u2066x\u2069\u200e\u061c')).toBe('abcdcbax')
    expect(plainText('Société Générale 腾讯控股 ＄€')).toBe('Société Générale 腾讯控股 ＄€')
  })

  it('cuts to the length given', () => {
    expect(plainText('x'.repeat(600))).toHaveLength(500)
    expect(plainText('abcdef', 3)).toBe('abc')
    expect(plainText('abc', 3)).toBe('abc')
  })

  it('tells plain text from text holding a control character', () => {
    expect(isPlainText('ok 腾讯')).toBe(true)
    expect(isPlainText('bad\u001b')).toBe(false)
    expect(isPlainText('\u202e')).toBe(false)
  })
})
