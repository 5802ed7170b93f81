import { describe, expect, it } from 'vitest'
import { DEFAULT_COLUMNS, GRID_COLUMNS, type GridColumn } from '../../../shared/grid'
import { fieldBit } from '../state/price-fields'
import {
  chooserOrder,
  columnDefs,
  COLUMN_DEFS,
  moveColumn,
  paintedFields,
  spokenName,
  toggleColumn,
} from './columns'
import { sortPatch } from './grid-prefs'
import { DEFAULT_GRID } from '../../../shared/grid'

describe('grid columns', () => {
  it('defines every column the settings can name', () => {
    expect(columnDefs(GRID_COLUMNS).map((c) => c.id)).toEqual([...GRID_COLUMNS])
  })

  it('names each header with the words it shows, then the whole name where the label is short', () => {
    expect(spokenName('Chg %', 'Change %')).toBe('Chg % (Change %)')
    expect(spokenName('Trend', 'Trend (sparkline)')).toBe('Trend (sparkline)')
    for (const def of columnDefs(GRID_COLUMNS)) {
      expect(def.spoken.toLowerCase()).toContain(def.label.toLowerCase())
      expect(def.spoken).toContain(def.name)
    }
    expect(COLUMN_DEFS.volume.spoken).toBe('Vol (Volume)')
  })

  it('paints only the fields of the chosen columns (a change also reads its price)', () => {
    const { mask, trend } = paintedFields(columnDefs(['change', 'bidSize']))
    expect(mask).toBe(fieldBit('change') | fieldBit('last') | fieldBit('bidSize'))
    expect(trend).toBe(false)
    expect(paintedFields(columnDefs(['trend'])).trend).toBe(true)
    expect(paintedFields(columnDefs(['spread'])).mask).toBe(fieldBit('bid') | fieldBit('ask'))
  })

  it('lists the shown columns first in their order, then the hidden ones', () => {
    const order = chooserOrder(['trades', 'last'])
    expect(order.slice(0, 2)).toEqual(['trades', 'last'])
    expect(new Set(order)).toEqual(new Set(GRID_COLUMNS))
  })

  it('shows a column at its place in the chooser and hides one', () => {
    const order: GridColumn[] = ['last', 'open', 'change', 'trades']
    expect(toggleColumn(order, ['last', 'change'], 'open')).toEqual(['last', 'open', 'change'])
    expect(toggleColumn(order, ['last', 'change'], 'last')).toEqual(['change'])
  })

  it('moves a column one place, and not past either end', () => {
    const order: GridColumn[] = [...DEFAULT_COLUMNS]
    expect(moveColumn(order, 'change', -1).slice(0, 2)).toEqual(['change', 'last'])
    expect(moveColumn(order, 'last', -1)).toEqual(order)
    expect(moveColumn(order, 'source', 1)).toEqual(order)
  })

  it('saves one list’s sort and forgets the sorts of lists that are gone', () => {
    const grid = {
      ...DEFAULT_GRID,
      sorts: {
        gone: { column: 'last', direction: 'ascending' },
        other: { column: 'volume', direction: 'descending' },
      },
    } as const
    const patch = sortPatch(grid, 'mine', { column: 'symbol', direction: 'ascending' }, [
      'mine',
      'other',
    ])
    expect(patch).toEqual({
      sorts: { mine: { column: 'symbol', direction: 'ascending' }, gone: null },
    })
  })
})
