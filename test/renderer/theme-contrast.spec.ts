import { describe, expect, it } from 'vitest'
import { readFileSync } from 'node:fs'
import { contrastRatio, themePalettes } from './contrast'

// Here, not beside the renderer: vitest's jsdom project turns CSS imports (even ?raw) into empty
// strings, and the renderer may not use node:fs. This reads the stylesheet the app ships.
const css = readFileSync(new URL('../../src/renderer/src/app.css', import.meta.url), 'utf8')
const THEMES = themePalettes(css)

// Text colours against every surface they are drawn on. Selected rows keep their up/down colours.
const TEXT = ['text', 'muted', 'up', 'down', 'warn', 'accent']
const SURFACES = ['bg', 'surface', 'surface-2', 'selected']

describe('theme contrast (WCAG 2.1 AA)', () => {
  it('computes the WCAG ratio: black on white is 21, a colour on itself is 1', () => {
    expect(contrastRatio('#000', '#ffffff')).toBeCloseTo(21, 5)
    expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2)
    expect(contrastRatio('#5a6270', '#5a6270')).toBe(1)
  })

  it('defines every colour token once, with its light and dark value together', () => {
    const names = [...css.matchAll(/^\s*--([\w-]+)\s*:/gm)].map((m) => m[1])
    expect(new Set(names).size).toBe(names.length)
    expect(Object.keys(THEMES.light).length).toBeGreaterThan(15)
    expect(Object.keys(THEMES.dark)).toEqual(Object.keys(THEMES.light))
    // The theme switches only pin color-scheme; they redefine no token.
    for (const block of css.matchAll(/\[data-theme='(light|dark)'\]\s*\{([^}]*)\}/g))
      expect(block[2]!.trim()).toBe(`color-scheme: ${block[1]};`)
  })

  for (const [theme, vars] of Object.entries(THEMES)) {
    it(`${theme}: text, muted, up, down, warn and accent reach 4.5:1 on every surface`, () => {
      const failures: string[] = []
      for (const fg of TEXT) {
        for (const bg of SURFACES) {
          const ratio = contrastRatio(vars[fg]!, vars[bg]!)
          if (ratio < 4.5) failures.push(`--${fg} on --${bg}: ${ratio.toFixed(2)}`)
        }
      }
      expect(failures).toEqual([])
    })

    it(`${theme}: the focus ring reaches 3:1 against the page and a selected row (WCAG 1.4.11)`, () => {
      expect(contrastRatio(vars.focus!, vars.bg!)).toBeGreaterThanOrEqual(3)
      expect(contrastRatio(vars.focus!, vars.selected!)).toBeGreaterThanOrEqual(3)
    })
  }
})
