import { describe, expect, it } from 'vitest'
import { iconImage, iconImageVars } from './icon-image'
import { ICON_PATHS } from './icon-paths'

/** The SVG inside a CSS url("data:image/svg+xml,...") value, decoded. */
function svgOf(cssUrl: string): Document {
  const m = /^url\("data:image\/svg\+xml,(.*)"\)$/.exec(cssUrl)
  if (m === null) throw new Error(`not a data URL image: ${cssUrl}`)
  return new DOMParser().parseFromString(decodeURIComponent(m[1] as string), 'image/svg+xml')
}

describe('iconImage', () => {
  it('draws the sprite’s path for the icon, outlined, as a well-formed SVG', () => {
    const doc = svgOf(iconImage('bell'))
    expect(doc.querySelector('parsererror')).toBeNull()
    const path = doc.querySelector('path')
    expect(path?.getAttribute('d')).toBe(ICON_PATHS.bell)
    expect(path?.getAttribute('fill')).toBe('none')
    expect(path?.getAttribute('stroke')).toBe('black')
    expect(path?.getAttribute('stroke-width')).toBe('1.5')
    expect(doc.documentElement.getAttribute('viewBox')).toBe('0 0 16 16')
  })

  it('draws a dot icon with the sprite’s heavier stroke', () => {
    expect(svgOf(iconImage('more')).querySelector('path')?.getAttribute('stroke-width')).toBe('2.6')
  })

  it('fills the icon when asked (a pinned star)', () => {
    expect(svgOf(iconImage('star', true)).querySelector('path')?.getAttribute('fill')).toBe('black')
  })

  it('keeps a quote or a bracket of a path out of the CSS value', () => {
    // The url("...") must not end early: nothing unescaped that CSS or the URL would read.
    for (const name of Object.keys(ICON_PATHS) as Array<keyof typeof ICON_PATHS>) {
      const inner = iconImage(name).slice('url("'.length, -'")'.length)
      expect(inner).not.toMatch(/["'()\s<>#]/)
    }
  })
})

describe('iconImageVars', () => {
  it('names one property per icon, and a filled one for each asked', () => {
    const el = document.createElement('div')
    el.setAttribute('style', iconImageVars(['star', 'close'], ['star']))
    expect(
      svgOf(el.style.getPropertyValue('--glyph-star').trim())
        .querySelector('path')
        ?.getAttribute('fill'),
    ).toBe('none')
    expect(
      svgOf(el.style.getPropertyValue('--glyph-star-filled').trim())
        .querySelector('path')
        ?.getAttribute('fill'),
    ).toBe('black')
    expect(el.style.getPropertyValue('--glyph-close')).toContain('data:image/svg+xml')
    expect(el.style.getPropertyValue('--glyph-bell')).toBe('')
  })
})
