import { randomUUID } from 'node:crypto'
import { z } from 'zod'
import { parseSymbolKey, symbolKey } from '../shared/market'
import type { Watchlist } from '../shared/watchlist'
import { TickdeskError } from '../core/errors'

/**
 * Import/export of watchlists. JSON: {"watchlists":[{"name","symbols":["market:SYMBOL"]}]} (a bare
 * array or a single list also accepted). CSV: header `watchlist,symbol`, one symbol a row.
 * Imports are parsed, never trusted: bad symbols are skipped and reported, not fatal.
 */
const ImportedListSchema = z.object({
  name: z.string().trim().min(1).max(64),
  symbols: z.array(z.string().max(64)).max(500),
})
const JsonImportSchema = z.union([
  z.object({ watchlists: z.array(ImportedListSchema).min(1).max(50) }),
  z.array(ImportedListSchema).min(1).max(50),
  ImportedListSchema,
])

export interface ImportResult {
  watchlists: Watchlist[]
  skipped: string[]
}

function toWatchlists(lists: { name: string; symbols: string[] }[]): ImportResult {
  const skipped: string[] = []
  const watchlists = lists.map((l) => {
    const symbols: string[] = []
    for (const raw of l.symbols) {
      const ref = parseSymbolKey(raw)
      if (!ref) {
        skipped.push(raw)
        continue
      }
      const key = symbolKey(ref.market, ref.symbol)
      if (!symbols.includes(key)) symbols.push(key)
    }
    return { id: randomUUID(), name: l.name, symbols }
  })
  return { watchlists, skipped }
}

export function importWatchlists(format: 'json' | 'csv', text: string): ImportResult {
  if (format === 'json') {
    let raw: unknown
    try {
      raw = JSON.parse(text)
    } catch {
      throw new TickdeskError({ code: 'INVALID_INPUT', message: 'The file is not valid JSON' })
    }
    const parsed = JsonImportSchema.safeParse(raw)
    if (!parsed.success) {
      throw new TickdeskError({
        code: 'INVALID_INPUT',
        message: 'Expected {"watchlists":[{"name":"…","symbols":["crypto:BTCUSDT"]}]}',
      })
    }
    const d = parsed.data
    return toWatchlists(Array.isArray(d) ? d : 'watchlists' in d ? d.watchlists : [d])
  }
  return toWatchlists(parseCsv(text))
}

function parseCsv(text: string): { name: string; symbols: string[] }[] {
  const lists = new Map<string, string[]>()
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '')
  for (const [i, line] of lines.entries()) {
    const cells = splitCsvLine(line)
    if (i === 0 && cells[0]?.toLowerCase() === 'watchlist') continue
    const [name, symbol] = cells
    if (!name || !symbol) continue
    const list = lists.get(name.slice(0, 64)) ?? []
    list.push(symbol)
    lists.set(name.slice(0, 64), list)
  }
  if (lists.size === 0) {
    throw new TickdeskError({
      code: 'INVALID_INPUT',
      message: 'Expected CSV rows of watchlist,symbol',
    })
  }
  return [...lists.entries()]
    .slice(0, 50)
    .map(([name, symbols]) => ({ name, symbols: symbols.slice(0, 500) }))
}

function splitCsvLine(line: string): string[] {
  const cells: string[] = []
  let cur = ''
  let quoted = false
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cur += '"'
        i++
      } else if (ch === '"') quoted = false
      else cur += ch
    } else if (ch === '"') quoted = true
    else if (ch === ',') {
      cells.push(cur.trim())
      cur = ''
    } else cur += ch
  }
  cells.push(cur.trim())
  return cells
}

function csvCell(value: string): string {
  return /[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value
}

export function exportWatchlist(list: Watchlist, format: 'json' | 'csv'): string {
  if (format === 'json') {
    return `${JSON.stringify({ watchlists: [{ name: list.name, symbols: list.symbols }] }, null, 2)}\n`
  }
  const rows = list.symbols.map((s) => `${csvCell(list.name)},${csvCell(s)}`)
  return `watchlist,symbol\n${rows.join('\n')}\n`
}
