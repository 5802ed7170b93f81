/**
 * Keyboard movement in a menu or listbox (WAI-ARIA APG menu and combobox patterns): arrows move
 * and wrap, Home/End jump, a printable character jumps to the next item starting with it. Items
 * that are disabled are skipped. Pure: components keep the index and focus the element.
 */
export type Orientation = 'vertical' | 'horizontal'

export interface MenuItemLike {
  label: string
  disabled?: boolean
}

function step(items: readonly MenuItemLike[], from: number, delta: 1 | -1): number {
  const n = items.length
  for (let k = 1; k <= n; k++) {
    const i = (((from + delta * k) % n) + n) % n
    if (!items[i]?.disabled) return i
  }
  return from
}

/** The index `key` moves to from `current`, or null when the key is not a movement key. */
export function moveIndex(
  items: readonly MenuItemLike[],
  current: number,
  key: string,
  orientation: Orientation = 'vertical',
): number | null {
  if (items.length === 0) return null
  const next = orientation === 'vertical' ? 'ArrowDown' : 'ArrowRight'
  const prev = orientation === 'vertical' ? 'ArrowUp' : 'ArrowLeft'
  // A one-line menu also takes the other arrows: people reach for Down in any menu.
  const nextAlt = orientation === 'vertical' ? null : 'ArrowDown'
  const prevAlt = orientation === 'vertical' ? null : 'ArrowUp'
  if (key === next || key === nextAlt) return step(items, current, 1)
  if (key === prev || key === prevAlt) return step(items, current < 0 ? 0 : current, -1)
  if (key === 'Home') return step(items, -1, 1)
  if (key === 'End') return step(items, items.length, -1)
  if (key.length === 1 && /\S/.test(key)) {
    const ch = key.toLowerCase()
    const n = items.length
    for (let k = 1; k <= n; k++) {
      const i = (current + k + n) % n
      const item = items[i]
      if (item && !item.disabled && item.label.trim().toLowerCase().startsWith(ch)) return i
    }
    return current
  }
  return null
}

/** The context-menu key or Shift+F10 (the keyboard's right click). */
export function isContextMenuKey(e: { key: string; shiftKey: boolean }): boolean {
  return e.key === 'ContextMenu' || (e.shiftKey && e.key === 'F10')
}
