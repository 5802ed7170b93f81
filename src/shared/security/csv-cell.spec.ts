import { describe, expect, it } from 'vitest'
import { csvCell, csvCellValue } from './csv-cell'

describe('a CSV cell a spreadsheet cannot run', () => {
  it.each(['=1+1', '+1', '-1', '@SUM(A1)', '\t=1', '\r=1', '＝1+1', '＋1', '－1', '＠SUM(A1)'])(
    'puts a quote before %j, which a spreadsheet would read as a formula',
    (value) => {
      expect(csvCell(value).replace(/^"/, '')).toMatch(/^'/)
      expect(csvCellValue(csvCell(value).replace(/^"|"$/g, ''))).toBe(value)
    },
  )

  it.each(['Tech', 'a=b', '1-2', 'x@y', '＝'.normalize('NFC').slice(1) + 'plain'])(
    'leaves %j as it is',
    (value) => {
      expect(csvCell(value)).toBe(value)
      expect(csvCellValue(value)).toBe(value)
    },
  )

  it('quotes a cell holding a comma, a quote or a line break, doubling its quotes', () => {
    expect(csvCell('a,b')).toBe('"a,b"')
    expect(csvCell('say "hi"')).toBe('"say ""hi"""')
    expect(csvCell('a\nb')).toBe('"a\nb"')
    expect(csvCell('a\rb')).toBe('"a\rb"')
  })

  it('takes off on import only the quote it put before a formula character', () => {
    expect(csvCellValue("'quoted")).toBe("'quoted")
    expect(csvCellValue("'=1")).toBe('=1')
  })
})
