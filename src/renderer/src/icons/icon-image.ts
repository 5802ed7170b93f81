import { ICON_PATHS, ICON_VIEWBOX, iconStroke, type IconName } from './icon-paths'

/**
 * An icon of ICON_PATHS as a CSS image, for a button that draws its icon as its own masked
 * background instead of holding an <svg><use> (Icon.svelte). Where an icon repeats on every row
 * of a list (the grid's pin, alert and remove), each <use> is an SVG subtree with a shadow copy of
 * its symbol: 300 of the grid's 1558 layout objects at rest, and half a millisecond of style a
 * switch to the 5000-symbol list (docs/performance.md, "Row icons drawn as masks"). A masked
 * background is one box.
 *
 * The image is drawn in black and used as a mask: the button paints currentColor through it, so
 * the icon takes the button's colour in both themes as the sprite's strokes do.
 */
export function iconImage(name: IconName, filled = false): string {
  const stroke = Object.entries(iconStroke(name))
    .map(([attr, value]) => `${attr}="${value}"`)
    .join(' ')
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${ICON_VIEWBOX}"><path d="${ICON_PATHS[name]}" ` +
    `fill="${filled ? 'black' : 'none'}" stroke="black" ${stroke}/></svg>`
  return `url("data:image/svg+xml,${encodeURIComponent(svg)}")`
}

/**
 * CSS custom properties naming each icon's image (`--glyph-star`, and `--glyph-star-filled`
 * for those asked filled), as one style attribute value for the element whose descendants mask
 * with them: computed once, parsed once per element that carries it.
 */
export function iconImageVars(
  names: readonly IconName[],
  filled: readonly IconName[] = [],
): string {
  const outline = names.map((n) => `--glyph-${n}: ${iconImage(n)}`)
  const solid = filled.map((n) => `--glyph-${n}-filled: ${iconImage(n, true)}`)
  return [...outline, ...solid].join('; ')
}
