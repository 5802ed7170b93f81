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

/**
 * The light and dark palettes of app.css: every `--name: light-dark(<light>, <dark>)` token with a
 * hex value on both sides (the stylesheet defines each token once, both themes together).
 */
export function themePalettes(css: string): {
  light: Record<string, string>
  dark: Record<string, string>
} {
  const light: Record<string, string> = {}
  const dark: Record<string, string> = {}
  const pattern = /--([\w-]+)\s*:\s*light-dark\(\s*(#[0-9a-f]{3,6})\s*,\s*(#[0-9a-f]{3,6})\s*\)/gi
  for (const [, name, l, d] of css.matchAll(pattern)) {
    light[name!] = l!
    dark[name!] = d!
  }
  return { light, dark }
}
