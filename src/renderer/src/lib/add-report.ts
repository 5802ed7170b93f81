import type { AddReport } from '../../../shared/markets/instrument'
import type { Market } from '../../../shared/markets/market'

/** Short market labels for search results and the strip, as exchanges' apps badge them. */
export const MARKET_BADGE: Record<Market, string> = {
  crypto: 'Crypto',
  'usdt-futures': 'Perp',
  futures: 'Futures',
  fx: 'FX',
  commodity: 'Cmdty',
  cn: 'A-share',
  hk: 'HK',
  index: 'Index',
  agri: 'Agri',
}

function list(items: string[], max = 6): string {
  const shown = items.slice(0, max).join(', ')
  return items.length > max ? `${shown} and ${items.length - max} more` : shown
}

/**
 * What an add did, in one or two sentences a trader reads at a glance: what was added, what was
 * already there, and what was not added with the reason.
 */
export function describeAdd(report: AddReport): { text: string; failed: boolean } {
  const parts: string[] = []
  const { added, present, rejected } = report
  if (added.length === 1 && present.length === 0 && rejected.length === 0) {
    const one = added[0]!
    return { text: `Added ${one.key}${one.note ? ` (${one.note})` : ''}.`, failed: false }
  }
  if (added.length > 0) parts.push(`Added ${added.length}: ${list(added.map((a) => a.key))}.`)
  const noted = added.filter((a) => a.note !== '')
  if (noted.length > 0)
    parts.push(
      list(
        noted.map((a) => `${a.key}: ${a.note}`),
        3,
      ) + '.',
    )
  if (present.length > 0) parts.push(`Already in the list: ${list(present.map((p) => p.key))}.`)
  if (rejected.length > 0)
    parts.push(
      `Not added ${rejected.length}: ${list(
        rejected.map((r) => `${r.input} (${r.message})`),
        4,
      )}.`,
    )
  if (parts.length === 0) return { text: 'Nothing to add.', failed: false }
  return { text: parts.join(' '), failed: rejected.length > 0 && added.length === 0 }
}
