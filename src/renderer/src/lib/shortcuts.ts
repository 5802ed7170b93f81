/**
 * Watchlist keyboard shortcuts. Keys typed into a text field belong to the field (except Escape),
 * so "/" or "a" in the add box is just text.
 */
export type Shortcut =
  | 'up'
  | 'down'
  | 'moveUp'
  | 'moveDown'
  | 'open'
  | 'remove'
  | 'alert'
  | 'pin'
  | 'focusAdd'
  | 'escape'

interface KeyLike {
  key: string
  altKey: boolean
  ctrlKey: boolean
  metaKey: boolean
  target: EventTarget | null
}

function inTextField(target: EventTarget | null): boolean {
  if (typeof HTMLElement === 'undefined' || !(target instanceof HTMLElement)) return false
  return (
    target.isContentEditable ||
    target.tagName === 'INPUT' ||
    target.tagName === 'TEXTAREA' ||
    target.tagName === 'SELECT'
  )
}

export function shortcutFor(e: KeyLike): Shortcut | null {
  if (e.key === 'Escape') return 'escape'
  if (e.ctrlKey || e.metaKey || inTextField(e.target)) return null
  // Buttons handle Enter themselves; only rows (or the page) open the detail view.
  if (e.key === 'Enter' && e.target instanceof HTMLElement && e.target.tagName === 'BUTTON')
    return null
  if (e.altKey) {
    if (e.key === 'ArrowUp') return 'moveUp'
    if (e.key === 'ArrowDown') return 'moveDown'
    return null
  }
  switch (e.key) {
    case 'ArrowUp':
    case 'k':
      return 'up'
    case 'ArrowDown':
    case 'j':
      return 'down'
    case 'Enter':
      return 'open'
    case 'Delete':
      return 'remove'
    case 'a':
      return 'alert'
    case 'p':
      return 'pin'
    case '/':
      return 'focusAdd'
    default:
      return null
  }
}

/** The key `step` rows away from `current` (clamped); the first row when nothing is selected. */
export function nextSelection(
  keys: readonly string[],
  current: string | null,
  step: number,
): string | null {
  if (keys.length === 0) return null
  const i = current === null ? -1 : keys.indexOf(current)
  if (i < 0) return keys[0] ?? null
  return keys[Math.max(0, Math.min(keys.length - 1, i + step))] ?? null
}
