import { describe, expect, it } from 'vitest'
import {
  DEFAULT_GRID,
  DERIVED_FIGURES,
  GRID_COLUMNS,
  GridSettingsSchema,
  mergeGrid,
  SORT_COLUMNS,
} from './grid'
import { FRAME_FIELDS } from './quote-frame'
import { mergeSettings, SettingsPatchSchema, SettingsSchema } from './settings'

describe('grid settings', () => {
  it('sorts by the symbol and by every column that shows a number', () => {
    expect(new Set(SORT_COLUMNS)).toEqual(
      new Set(['symbol', ...GRID_COLUMNS.filter((c) => c !== 'trend' && c !== 'source')]),
    )
  })

  it('offers only numbers the bridge carries, or ones made of them (the spread of bid and ask)', () => {
    for (const c of SORT_COLUMNS.slice(1)) {
      const parts: readonly string[] = c in DERIVED_FIGURES ? DERIVED_FIGURES[c as 'spread'] : [c]
      for (const part of parts) expect(FRAME_FIELDS, c).toContain(part)
    }
  })

  it('offers a spread column, hidden until chosen, sortable, and kept in saved settings', () => {
    expect(GRID_COLUMNS).toContain('spread')
    expect(DEFAULT_GRID.columns).not.toContain('spread')
    expect(SORT_COLUMNS).toContain('spread')
    const chosen = { ...DEFAULT_GRID, columns: ['last', 'bid', 'ask', 'spread'] }
    expect(GridSettingsSchema.parse(chosen).columns).toEqual(['last', 'bid', 'ask', 'spread'])
  })

  it('refuses a column listed twice, an unknown column and an unknown density', () => {
    const ok = { ...DEFAULT_GRID, columns: ['last', 'trades'] }
    expect(GridSettingsSchema.safeParse(ok).success).toBe(true)
    expect(GridSettingsSchema.safeParse({ ...ok, columns: ['last', 'last'] }).success).toBe(false)
    expect(GridSettingsSchema.safeParse({ ...ok, columns: ['last', 'pe'] }).success).toBe(false)
    expect(GridSettingsSchema.safeParse({ ...ok, density: 'cosy' }).success).toBe(false)
  })

  it('merges sorts list by list: one list’s sort never undoes another’s, null forgets one', () => {
    const a = mergeGrid(DEFAULT_GRID, {
      sorts: { crypto: { column: 'last', direction: 'ascending' } },
    })
    const b = mergeGrid(a, { sorts: { macro: { column: 'volume', direction: 'descending' } } })
    expect(b.sorts).toEqual({
      crypto: { column: 'last', direction: 'ascending' },
      macro: { column: 'volume', direction: 'descending' },
    })
    expect(mergeGrid(b, { sorts: { crypto: null } }).sorts).toEqual({
      macro: { column: 'volume', direction: 'descending' },
    })
    expect(b.columns).toEqual(DEFAULT_GRID.columns)
  })

  it('changes the density alone through a settings patch, columns and sorts untouched', () => {
    const start = SettingsSchema.parse({
      grid: { ...DEFAULT_GRID, sorts: { crypto: { column: 'symbol', direction: 'descending' } } },
    })
    const patch = SettingsPatchSchema.parse({ grid: { density: 'compact' } })
    const next = SettingsSchema.parse(mergeSettings(start, patch))
    expect(next.grid).toEqual({ ...start.grid, density: 'compact' })
  })
})
