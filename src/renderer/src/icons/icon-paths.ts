/**
 * The one icon set: 16x16 strokes drawn in currentColor, so an icon takes its button's colour in
 * both themes. IconSprite.svelte puts each path in the page once as a <symbol>; Icon.svelte
 * references it (<use>), so a hundred icons cost a hundred tiny nodes, not a hundred path copies.
 * An icon is filled where --icon-fill says so (a pinned star), outlined otherwise.
 * Drawn, not emoji: emoji fonts are missing on many Linux desktops.
 */
export const ICON_PATHS = {
  bell: 'M8 2a4 4 0 0 1 4 4v3l1.5 2h-11L4 9V6a4 4 0 0 1 4-4Zm-1.5 11a1.5 1.5 0 0 0 3 0',
  gear: 'M8 5.5a2.5 2.5 0 1 0 0 5 2.5 2.5 0 0 0 0-5ZM8 1.5v2M8 12.5v2M1.5 8h2M12.5 8h2M3.4 3.4l1.4 1.4M11.2 11.2l1.4 1.4M3.4 12.6l1.4-1.4M11.2 4.8l1.4-1.4',
  more: 'M3 8h.01M8 8h.01M13 8h.01',
  strip: 'M1.5 5.5h13v5h-13zM4 8h2M8 8h1.5M11.5 8h1',
  close: 'M4 4l8 8M12 4l-8 8',
  plus: 'M8 3v10M3 8h10',
  grip: 'M6 3h.01M10 3h.01M6 8h.01M10 8h.01M6 13h.01M10 13h.01',
  search: 'M7 2.5a4.5 4.5 0 1 0 0 9 4.5 4.5 0 0 0 0-9ZM10.3 10.3l3.2 3.2',
  warning: 'M8 2 14.5 13.5h-13L8 2ZM8 6.5v3M8 11.5h.01',
  panel: 'M2 3h12v10H2zM10 3v10',
  open: 'M9 2.5h4.5V7M13.5 2.5 7.5 8.5M11.5 9.5v4h-9v-9h4',
  check: 'M3 8.5l3 3 7-7',
  chevron: 'M4 6l4 4 4-4',
  star: 'M8 1.8l1.9 3.9 4.3.6-3.1 3 .7 4.3L8 11.6l-3.8 2 .7-4.3-3.1-3 4.3-.6z',
  columns: 'M2 3h12v10H2zM6 3v10M10 3v10',
} as const

export type IconName = keyof typeof ICON_PATHS
export const ICON_NAMES = Object.keys(ICON_PATHS) as IconName[]

/** The box every path is drawn in. */
export const ICON_VIEWBOX = '0 0 16 16'

/**
 * The stroke an icon's path is drawn with, as SVG attributes (the sprite's and the images'): the
 * dot icons (more, grip) heavier, so their dots show.
 */
export function iconStroke(name: IconName): {
  'stroke-width': number
  'stroke-linecap': 'round'
  'stroke-linejoin': 'round'
} {
  return {
    'stroke-width': name === 'more' || name === 'grip' ? 2.6 : 1.5,
    'stroke-linecap': 'round',
    'stroke-linejoin': 'round',
  }
}
