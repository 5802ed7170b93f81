import { z } from 'zod'
import { parseSymbolKey, symbolKey } from './market'
import type { Watchlist } from './watchlist'

/**
 * Watchlists as files, for export and import. JSON: {"watchlists":[{"name","symbols":["market:SYMBOL"]}]}
 * (a bare array or a single list also accepted). CSV: header `watchlist,symbol`, one symbol a row.
 * Imports are parsed, never trusted: bad symbols are skipped and reported, not fatal; symbols come
 * out canonical (market:SYMBOL, upper case) and once per list. Shared so the host and the
 * renderer's test host read a file the same way.
 */
export type WatchlistFileFormat = 'json' | 'csv'

export interface ListFromFile {
  name: string
  symbols: string[]
}

export type WatchlistFile =
  { ok: true; lists: ListFromFile[]; skipped: string[] } | { ok: false; message: string }

const ImportedListSchema = z.object({
  name: z.string().trim().min(1).max(64),
  symbols: z.array(z.string().max(64)).max(500),
})
const JsonImportSchema = z.union([
  z.object({ watchlists: z.array(ImportedListSchema).min(1).max(50) }),
  z.array(ImportedListSchema).min(1).max(50),
  ImportedListSchema,
])

function canonical(lists: ListFromFile[]): WatchlistFile {
  const skipped: string[] = []
  const out = lists.map((l) => {
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
    return { name: l.name, symbols }
  })
  return { ok: true, lists: out, skipped }
}

export function parseWatchlistFile(format: WatchlistFileFormat, text: string): WatchlistFile {
  if (format === 'json') {
    let raw: unknown
    try {
      raw = JSON.parse(text)
    } catch {
      return { ok: false, message: 'The file is not valid JSON' }
    }
    const parsed = JsonImportSchema.safeParse(raw)
    if (!parsed.success) {
      return {
        ok: false,
        message: 'Expected {"watchlists":[{"name":"…","symbols":["crypto:BTCUSDT"]}]}',
      }
    }
    const d = parsed.data
    return canonical(Array.isArray(d) ? d : 'watchlists' in d ? d.watchlists : [d])
  }
  const lists = parseCsv(text)
  if (lists.length === 0) return { ok: false, message: 'Expected CSV rows of watchlist,symbol' }
  return canonical(lists)
}

function parseCsv(text: string): ListFromFile[] {
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

export function formatWatchlistFile(
  list: Pick<Watchlist, 'name' | 'symbols'>,
  format: WatchlistFileFormat,
): string {
  if (format === 'json') {
    return `${JSON.stringify({ watchlists: [{ name: list.name, symbols: list.symbols }] }, null, 2)}\n`
  }
  const rows = list.symbols.map((s) => `${csvCell(list.name)},${csvCell(s)}`)
  return `watchlist,symbol\n${rows.join('\n')}\n`
}
