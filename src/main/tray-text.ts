import type { TrayQuote } from '../app/host-api'
import { parseSymbolKey } from '../shared/markets/market'

/**
 * How pinned prices read in the tray: "BTCUSDT 64,210.5 +1.2%". Plain functions so the tooltip,
 * the macOS title and the menu items say the same thing.
 */
const MAX_TOOLTIP = 127 // Windows truncates tray tooltips at 127 characters

export function formatPrice(value: number): string {
  const abs = Math.abs(value)
  const digits = abs >= 1000 ? 2 : abs >= 1 ? 4 : 8
  return value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 })
}

export function formatPercent(value: number): string {
  const rounded = Math.round(value * 10) / 10
  return `${rounded > 0 ? '+' : rounded < 0 ? '-' : ''}${Math.abs(rounded).toFixed(1)}%`
}

export function traySymbol(key: string): string {
  return parseSymbolKey(key)?.symbol ?? key
}

export function formatTrayQuote(quote: TrayQuote): string {
  const parts = [traySymbol(quote.key), quote.last === null ? '—' : formatPrice(quote.last)]
  if (quote.changePercent !== null) parts.push(formatPercent(quote.changePercent))
  if (quote.stale) parts.push('(stale)')
  return parts.join(' ')
}

export function trayTooltip(quotes: readonly TrayQuote[]): string {
  const text = ['Tickdesk', ...quotes.map(formatTrayQuote)].join('\n')
  return text.length <= MAX_TOOLTIP ? text : `${text.slice(0, MAX_TOOLTIP - 1)}…`
}

/** The macOS menu-bar title: the first few pinned prices, compact. */
export function trayTitle(quotes: readonly TrayQuote[], max = 3): string {
  return quotes.slice(0, max).map(formatTrayQuote).join('  ')
}

const MAX_MENU_LABEL = 80

/**
 * The tray menu's line for the latest fire: "14:05 BTCUSDT crossed above 98,000". Local time of
 * the fire, as the history shows it; long messages end in an ellipsis (menus do not wrap).
 */
export function trayAlertLine(alert: { key: string; message: string; at: number }): string {
  const time = new Date(alert.at).toLocaleTimeString('en-GB', {
    hour: '2-digit',
    minute: '2-digit',
  })
  const text = `${time} ${alert.message}`
  return text.length <= MAX_MENU_LABEL ? text : `${text.slice(0, MAX_MENU_LABEL - 1)}…`
}
