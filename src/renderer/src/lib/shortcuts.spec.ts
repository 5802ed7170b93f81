import { describe, expect, it } from 'vitest'
import { SHORTCUT_HELP, shortcutFor } from './shortcuts'

describe('the keyboard shortcuts dialog', () => {
  const items = SHORTCUT_HELP.flatMap((g) => g.items)
  const press = (key: string, altKey = false) =>
    shortcutFor({ key, altKey, ctrlKey: false, metaKey: false, target: null })

  it('tells the truth: each listed watchlist key does what the dialog says', () => {
    for (const item of items)
      for (const p of item.press ?? []) expect(press(p.key, p.altKey), item.keys).toBe(item.action)
  })

  it('lists every watchlist action the keyboard handler knows', () => {
    const keys = [
      'ArrowUp',
      'ArrowDown',
      'j',
      'k',
      'Enter',
      'Delete',
      'a',
      'p',
      'l',
      '/',
      '?',
      'Escape',
    ]
    const known = new Set([
      ...keys.map((k) => press(k)),
      press('ArrowUp', true),
      press('ArrowDown', true),
    ])
    known.delete(null)
    const listed = new Set(items.map((i) => i.action))
    for (const action of known) {
      // up/down and moveUp/moveDown are listed as one line each
      const line = action === 'up' ? 'down' : action === 'moveDown' ? 'moveUp' : action
      expect(listed.has(line ?? undefined), String(action)).toBe(true)
    }
  })
})
