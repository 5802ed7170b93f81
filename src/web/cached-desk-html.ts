import type { CachedDesk, CachedRow } from '../app'
import {
  formatAmount,
  formatChange,
  formatPercent,
  formatPrice,
  MISSING,
} from '../shared/figures/figure-text'
import { DENSITY, GRID_COLUMN_KINDS, GRID_COLUMN_LABELS, type GridColumn } from '../shared/grid'
import { formatClock } from '../shared/markets/clock-text'
import { parseSymbolKey } from '../shared/markets/market'
import { escapeHtml } from '../shared/security/html-text'
import {
  columnWidthCh,
  FIGURE_CAP_CH,
  headerCh,
  textCh,
  type FigureKind as SharedFigureKind,
} from '../shared/figures/figure-width'
import type { Quote, QuoteFigure } from '../shared/quote'

/**
 * The active list with its cached prices as static HTML, put into the page the browser host
 * serves: the trader sees their list with its last known prices as soon as the HTML is parsed,
 * before the page's script has loaded, each price marked "Cached" the way the grid marks one.
 * The grid's markup and class names, drawn under #cached-desk and styled by the page's own
 * stylesheets (the grid's watchlist-table.css, and cached-desk.css for what only the picture
 * needs); the app removes it in the frame its grid first shows (App.svelte), and is hidden until
 * then (cached-desk.css), so a screen reader meets one list at a time.
 *
 * Everything written is escaped: symbols, names and the list's name come from files on disk.
 * No script and no event handler: the page's Content-Security-Policy stays as it is.
 * Row and cell attributes are data-cached-key / data-cached-field, not the grid's data-key /
 * data-field: nothing that looks for the live grid's rows finds these.
 */
export const CACHED_DESK_ID = 'cached-desk'

type FigureKind = Exclude<SharedFigureKind, 'spread'>

/** The kind of a column whose cells are written from one quote figure; undefined for the others. */
function figureKind(col: GridColumn): FigureKind | undefined {
  const kind = GRID_COLUMN_KINDS[col]
  return kind === 'spread' || kind === 'trend' || kind === 'source' ? undefined : kind
}

/** A finite number from the quote, else null (a cache is data from disk: parse, don't trust). */
function figure(quote: Quote | null, field: QuoteFigure): number | null {
  const v = quote?.[field]
  return typeof v === 'number' && Number.isFinite(v) ? v : null
}

function figureText(col: GridColumn, quote: Quote | null): string {
  const kind = figureKind(col)
  if (kind === undefined || quote === null) return kind === undefined ? '' : MISSING
  const value = figure(quote, col as QuoteFigure)
  switch (kind) {
    case 'price':
      return formatPrice(value, quote.market, quote.symbol)
    case 'change':
      return formatChange(value, quote.market, quote.symbol, figure(quote, 'last'))
    case 'percent':
      return formatPercent(value)
    case 'amount':
      return formatAmount(value)
  }
}

function rowHtml(
  row: CachedRow,
  columns: readonly GridColumn[],
  index: number,
  now: number,
): string {
  // As the grid's symbol cell shows it; a key that does not parse is shown whole.
  const { market, symbol } = parseSymbolKey(row.key) ?? { market: '', symbol: row.key }
  const key = escapeHtml(row.key)
  const ts = row.quote !== null && Number.isFinite(row.quote.ts) ? row.quote.ts : null
  const cells = columns.map((col) => {
    if (col === 'trend') return '<td class="spark-cell"></td>'
    if (col === 'source') {
      const badge = row.quote === null ? 'Waiting' : 'Cached'
      const age = ts === null ? '' : `as of ${formatClock(ts, now)}`
      return `<td class="source"><div class="fit"><span class="badge badge-${badge.toLowerCase()}">${badge}</span><span class="age">${escapeHtml(age)}</span></div></td>`
    }
    const text = col === 'spread' ? '' : figureText(col, row.quote)
    return `<td data-cached-field="${col}" class="num"><span class="v">${escapeHtml(text)}</span></td>`
  })
  return (
    `<tr data-cached-key="${key}" aria-rowindex="${index + 2}" class="stale">` +
    `<th scope="row" class="symbol"><div class="fit" title="${key}"><span class="link">${escapeHtml(symbol)}</span><span class="market">${escapeHtml(market)}</span></div></th>` +
    cells.join('') +
    '<td class="actions"></td></tr>'
  )
}

/** A figure column's width in ch, as the grid sizes it (shared/figures/figure-width.ts). */
function columnCh(col: GridColumn, rows: readonly CachedRow[]): number {
  const kind = GRID_COLUMN_KINDS[col]
  if (kind === 'trend' || kind === 'source') return 0 // sized in px by the density
  let need = headerCh(GRID_COLUMN_LABELS[col])
  for (const row of rows) need = Math.max(need, textCh(figureText(col, row.quote)))
  return columnWidthCh(need, FIGURE_CAP_CH[kind])
}

/** The <section> drawn into the page; '' when there is nothing to show. */
export function cachedDeskHtml(desk: CachedDesk | null, now: number): string {
  if (desk === null || desk.rows.length === 0) return ''
  const m = DENSITY[desk.density] ?? DENSITY.comfortable
  const density = desk.density === 'compact' ? 'compact' : 'comfortable'
  const cols = desk.columns.map((col) => {
    if (col === 'trend') return `<col style="width:${m.sparkWidth + 2 * m.padX}px">`
    if (col === 'source') return `<col style="width:${m.sourceWidth}px">`
    return `<col style="width:calc(${columnCh(col, desk.rows)}ch + ${2 * m.padX}px)">`
  })
  const heads = desk.columns.map((col) => {
    const kind = GRID_COLUMN_KINDS[col]
    const num = kind === 'trend' || kind === 'source' ? '' : ' class="num"'
    return `<th scope="col"${num}>${escapeHtml(GRID_COLUMN_LABELS[col])}</th>`
  })
  const rows = desk.rows.map((row, i) => rowHtml(row, desk.columns, i, now)).join('')
  const name = escapeHtml(desk.listName)
  return (
    `<section id="${CACHED_DESK_ID}" aria-label="${name}: cached prices">` +
    `<p class="cached-note" role="status">${name}: cached prices from the last session. Connecting…</p>` +
    `<table class="watchlist ${density}" aria-label="Watchlist ${name} (cached)" aria-rowcount="${desk.total + 1}" style="--pad-x:${m.padX}px">` +
    `<colgroup><col style="width:${m.symbolWidth}px">${cols.join('')}<col></colgroup>` +
    `<thead><tr aria-rowindex="1"><th scope="col">Symbol</th>${heads.join('')}<th scope="col"><span class="sr-only">Actions</span></th></tr></thead>` +
    `<tbody>${rows}</tbody></table></section>`
  )
}

const MOUNT = '<div id="app">'

/** The page with the snapshot just before the app's mount point; unchanged when there is none. */
export function withCachedDesk(page: string, snapshot: string): string {
  const at = page.indexOf(MOUNT)
  return snapshot === '' || at < 0 ? page : page.slice(0, at) + snapshot + page.slice(at)
}
