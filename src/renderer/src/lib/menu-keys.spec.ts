import { describe, expect, it } from 'vitest'
import { isContextMenuKey, moveIndex } from './menu-keys'

const items = [
  { label: 'New list' },
  { label: 'Rename' },
  { label: 'Delete', disabled: true },
  { label: 'Export' },
]

describe('menu keyboard movement', () => {
  it('moves with arrows, wrapping and skipping disabled items', () => {
    expect(moveIndex(items, 0, 'ArrowDown')).toBe(1)
    expect(moveIndex(items, 1, 'ArrowDown')).toBe(3)
    expect(moveIndex(items, 3, 'ArrowDown')).toBe(0)
    expect(moveIndex(items, 0, 'ArrowUp')).toBe(3)
  })

  it('jumps with Home and End and by first letter', () => {
    expect(moveIndex(items, 1, 'Home')).toBe(0)
    expect(moveIndex(items, 0, 'End')).toBe(3)
    expect(moveIndex(items, 0, 'e')).toBe(3)
    expect(moveIndex(items, 0, 'd')).toBe(0)
  })

  it('uses Left and Right in a one-line menu, and ignores other keys', () => {
    expect(moveIndex(items, 0, 'ArrowRight', 'horizontal')).toBe(1)
    expect(moveIndex(items, 0, 'ArrowLeft', 'horizontal')).toBe(3)
    expect(moveIndex(items, 0, 'ArrowRight', 'vertical')).toBeNull()
    expect(moveIndex(items, 0, 'Enter')).toBeNull()
    expect(moveIndex([], 0, 'ArrowDown')).toBeNull()
  })

  it('knows the keyboard right click', () => {
    expect(isContextMenuKey({ key: 'ContextMenu', shiftKey: false })).toBe(true)
    expect(isContextMenuKey({ key: 'F10', shiftKey: true })).toBe(true)
    expect(isContextMenuKey({ key: 'F10', shiftKey: false })).toBe(false)
  })
})
