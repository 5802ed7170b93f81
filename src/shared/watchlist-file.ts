import { z } from 'zod'
import { csvCell, csvCellValue } from './security/csv-cell'
import { parseSymbolKey, symbolKey } from './markets/market'
import { LotInputSchema, parseDecimal, type Lot } from './positions/position'
import { MAX_SYMBOLS_PER_LIST, type Watchlist } from './watchlist'

/**
 * Watchlists as files, for export and import. JSON: {"watchlists":[{"name","symbols":["market:SYMBOL"]}]}
 * (a bare array or a single list also accepted). CSV: header `watchlist,symbol`, one symbol a row.
 * A list with lots (positions) carries them: JSON `"lots":[{"key","qty","cost","date","fee"}]`; CSV
 * header `watchlist,symbol,qty,cost,date,fee`, one row per lot (a symbol without lots: empty lot
 * cells). A lot that does not pass LotInputSchema is skipped and reported, like a bad symbol.
 * Imports are parsed, never trusted: bad symbols are skipped and reported, not fatal; symbols come
 * out canonical (market:SYMBOL, upper case) and once per list. Shared so the host and the
 * renderer's test host read a file the same way.
 */
export type WatchlistFileFormat = 'json' | 'csv'

/** A lot read from a file: checked, without the id and time the book gives it. */
export type LotFromFile = Omit<Lot, 'id' | 'addedAt'>

export interface ListFromFile {
  name: string
  symbols: string[]
  lots?: unknown[]
}

export interface ListRead {
  name: string
  symbols: string[]
  lots: LotFromFile[]
}

export type WatchlistFile =
  { ok: true; lists: ListRead[]; skipped: string[] } | { ok: false; message: string }

const ImportedListSchema = z.object({
  name: z.string().trim().min(1).max(64),
  symbols: z.array(z.string().max(64)).max(MAX_SYMBOLS_PER_LIST),
  lots: z.array(z.unknown()).max(5000).optional(),
})
const JsonImportSchema = z.union([
  z.object({ watchlists: z.array(ImportedListSchema).min(1).max(50) }),
  z.array(ImportedListSchema).min(1).max(50),
  ImportedListSchema,
])

/**
 * A cell from the file as a notice or the log may show it: at most 64 characters (finding 6). A
 * file of megabyte-long cells is parsed, never echoed.
 */
function shown(cell: string): string {
  return cell.length > 64 ? `${cell.slice(0, 63)}…` : cell
}

function canonical(lists: ListFromFile[]): WatchlistFile {
  const skipped: string[] = []
  const out = lists.map((l) => {
    const symbols: string[] = []
    // A Set beside the array: a 5000-symbol list is not 12.5M string comparisons.
    const listed = new Set<string>()
    for (const raw of l.symbols) {
      const ref = parseSymbolKey(raw)
      if (!ref) {
        skipped.push(shown(raw))
        continue
      }
      const key = symbolKey(ref.market, ref.symbol)
      if (!listed.has(key)) {
        listed.add(key)
        symbols.push(key)
      }
    }
    const lots: LotFromFile[] = []
    for (const raw of l.lots ?? []) {
      const lot = LotInputSchema.safeParse(raw)
      if (!lot.success) {
        const key = (raw as { key?: unknown } | null)?.key
        skipped.push(
          `lot of ${typeof key === 'string' ? key.slice(0, 64) : '?'}: ${lot.error.issues[0]?.message ?? 'invalid'}`,
        )
        continue
      }
      lots.push(lot.data)
      if (!listed.has(lot.data.key)) {
        listed.add(lot.data.key)
        symbols.push(lot.data.key)
      }
    }
    return { name: l.name, symbols, lots }
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
  const lots = new Map<string, unknown[]>()
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '')
  for (const [i, line] of lines.entries()) {
    const cells = splitCsvLine(line).map(csvCellValue)
    if (i === 0 && cells[0]?.toLowerCase() === 'watchlist') continue
    const [name, symbol, qty, cost, date, fee] = cells
    if (!name || !symbol) continue
    const list = lists.get(name.slice(0, 64)) ?? []
    list.push(symbol)
    lists.set(name.slice(0, 64), list)
    if (qty || cost) {
      const held = lots.get(name.slice(0, 64)) ?? []
      held.push({
        key: symbol,
        qty: parseDecimal(qty ?? ''),
        cost: parseDecimal(cost ?? ''),
        date: date || null,
        ...(fee ? { fee: parseDecimal(fee) } : {}),
      })
      lots.set(name.slice(0, 64), held)
    }
  }
  return [...lists.entries()].slice(0, 50).map(([name, symbols]) => ({
    name,
    symbols: symbols.slice(0, MAX_SYMBOLS_PER_LIST),
    lots: (lots.get(name) ?? []).slice(0, 5000),
  }))
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

/** A list as a file, with the lots of its symbols when given (none: the format before lots). */
export function formatWatchlistFile(
  list: Pick<Watchlist, 'name' | 'symbols'>,
  format: WatchlistFileFormat,
  allLots: readonly LotFromFile[] = [],
): string {
  const lots = allLots
    .filter((l) => list.symbols.includes(l.key))
    .map(({ key, qty, cost, date, fee }) => ({ key, qty, cost, date, fee }))
  if (format === 'json') {
    const entry = { name: list.name, symbols: list.symbols, ...(lots.length ? { lots } : {}) }
    return `${JSON.stringify({ watchlists: [entry] }, null, 2)}\n`
  }
  const name = csvCell(list.name)
  if (lots.length === 0) {
    const rows = list.symbols.map((s) => `${name},${csvCell(s)}`)
    return `watchlist,symbol\n${rows.join('\n')}\n`
  }
  const rows = list.symbols.flatMap((s) => {
    const held = lots.filter((l) => l.key === s)
    if (held.length === 0) return [`${name},${csvCell(s)},,,,`]
    return held.map(
      (l) => `${name},${csvCell(s)},${l.qty},${l.cost},${csvCell(l.date ?? '')},${l.fee}`,
    )
  })
  return `watchlist,symbol,qty,cost,date,fee\n${rows.join('\n')}\n`
}
