import { describe, expect, it } from 'vitest'
import { escapeHtml } from './html-text'

describe('escapeHtml', () => {
  it('writes every character that could end a text node or a quoted attribute as an entity', () => {
    expect(escapeHtml(`<img src=x onerror="alert(1)">'&`)).toBe(
      '&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&#39;&amp;',
    )
  })

  it('escapes an ampersand once, so an entity already in the text shows as written', () => {
    expect(escapeHtml('&amp;')).toBe('&amp;amp;')
  })

  it('leaves other text as it came: accents, CJK, a launch address', () => {
    expect(escapeHtml('腾讯 Nestlé')).toBe('腾讯 Nestlé')
    expect(escapeHtml('http://127.0.0.1:5555/?token=abc')).toBe('http://127.0.0.1:5555/?token=abc')
  })
})
