/**
 * WCAG 2.x contrast ratio of two sRGB colours (https://www.w3.org/TR/WCAG21/#dfn-contrast-ratio),
 * and a reader for the theme blocks of app.css, so the palette is checked by a test rather than
 * by eye.
 */

function channel(c8: number): number {
  const c = c8 / 255
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
}

/** Relative luminance of #rgb or #rrggbb. */
export function luminance(hex: string): number {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex.trim())
  if (m === null) throw new Error(`Not a hex colour: ${hex}`)
  const h = m[1]!.length === 3 ? [...m[1]!].map((d) => d + d).join('') : m[1]!
  const [r, g, b] = [0, 2, 4].map((i) => channel(parseInt(h.slice(i, i + 2), 16)))
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!
}

export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x)
  return (hi! + 0.05) / (lo! + 0.05)
}

/** The custom properties (--name: value) declared in the first CSS block whose selector matches. */
export function themeVariables(css: string, selector: RegExp): Record<string, string> {
  const blocks = css.matchAll(/([^{}]+)\{([^{}]*)\}/g)
  for (const [, sel, body] of blocks) {
    if (!selector.test(sel!)) continue
    const vars: Record<string, string> = {}
    for (const [, name, value] of body!.matchAll(/--([\w-]+)\s*:\s*([^;]+);/g)) {
      vars[name!] = value!.trim()
    }
    return vars
  }
  return {}
}
