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
  | 'help'
  | 'lot'
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
    case '?':
      return 'help'
    case 'l':
      return 'lot'
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

/** One line of the keyboard shortcuts dialog. `press` is what the app answers to, as typed. */
export interface ShortcutHelp {
  keys: string
  does: string
  /** The watchlist action these keys trigger (checked against shortcutFor in the tests). */
  action?: Shortcut
  press?: Array<{ key: string; altKey?: boolean }>
}

export interface ShortcutGroup {
  title: string
  items: ShortcutHelp[]
}

/** Every key the app answers to, for the "?" dialog and Help > Keyboard Shortcuts. */
export const SHORTCUT_HELP: readonly ShortcutGroup[] = [
  {
    title: 'Watchlist',
    items: [
      {
        keys: '↑ ↓ or k j',
        does: 'Select the row above or below',
        action: 'down',
        press: [{ key: 'ArrowDown' }, { key: 'j' }],
      },
      {
        keys: 'Alt+↑ Alt+↓',
        does: 'Move the selected row up or down the list',
        action: 'moveUp',
        press: [{ key: 'ArrowUp', altKey: true }],
      },
      {
        keys: 'Enter',
        does: 'Open the chart of the selected symbol',
        action: 'open',
        press: [{ key: 'Enter' }],
      },
      {
        keys: 'Delete',
        does: 'Remove the selected symbol from the list',
        action: 'remove',
        press: [{ key: 'Delete' }],
      },
      {
        keys: 'a',
        does: 'New alert for the selected symbol',
        action: 'alert',
        press: [{ key: 'a' }],
      },
      {
        keys: 'l',
        does: 'Add a lot (a position) in the selected symbol',
        action: 'lot',
        press: [{ key: 'l' }],
      },
      {
        keys: 'p',
        does: 'Pin or unpin the selected symbol (tray and strip)',
        action: 'pin',
        press: [{ key: 'p' }],
      },
      {
        keys: '/',
        does: 'Go to the add box: type a name or a code',
        action: 'focusAdd',
        press: [{ key: '/' }],
      },
      {
        keys: 'Escape',
        does: 'Close the chart or Settings; leave a field',
        action: 'escape',
        press: [{ key: 'Escape' }],
      },
      { keys: '?', does: 'Show these shortcuts', action: 'help', press: [{ key: '?' }] },
    ],
  },
  {
    title: 'Add box',
    items: [
      { keys: '↓ ↑', does: 'Walk through the matches' },
      { keys: 'Enter', does: 'Add the chosen match (or a typed market:SYMBOL)' },
      { keys: 'Escape', does: 'Close the matches' },
    ],
  },
  {
    title: 'Table and chart',
    items: [
      { keys: 'Enter on a header', does: 'Sort: ascending, descending, then the list’s own order' },
      { keys: '↑ ↓ on the divider', does: 'Resize the chart under the grid' },
      { keys: 'a on the chart', does: 'New alert at the last price (the chart’s own form)' },
      { keys: 'Shift+F10 on the chart', does: 'Alert above or below the last price (menu)' },
      { keys: '↑ ↓ on an alert line', does: 'Move its level (Page Up/Down: ten steps)' },
      { keys: 'Arrows on the wall or heatmap', does: 'Move between tiles; Enter opens the chart' },
    ],
  },
  {
    title: 'Drawings on the chart',
    items: [
      { keys: 'd on the chart', does: 'The drawing tools: ← → pick one, Enter places it in view' },
      { keys: 'Arrows on a drawing', does: 'Move it (Shift: ten steps); Tab to its points' },
      { keys: 'Delete on a drawing', does: 'Remove it, and the alerts on it' },
      { keys: 'a on a drawing', does: 'Alert when price crosses it (enters or leaves a range)' },
      { keys: 'Enter on a drawing', does: 'Its menu: alerts, extent, Delete' },
      { keys: 'Ctrl+Z, Ctrl+Shift+Z', does: 'Undo, redo a drawing' },
    ],
  },
  {
    title: 'Columns dialog',
    items: [
      { keys: '↑ ↓', does: 'Walk the columns' },
      { keys: 'Space', does: 'Show or hide a column' },
      { keys: 'Alt+↑ Alt+↓', does: 'Move a column' },
      { keys: 'Escape', does: 'Close' },
    ],
  },
  {
    title: 'Ticker strip and window',
    items: [
      { keys: 'Ctrl+Shift+T (⌘⇧T)', does: 'Show or hide the ticker strip (desktop app)' },
      { keys: 'Shift+F10 or the menu key', does: 'The strip’s menu: list, speed, scroll or page' },
    ],
  },
]
