import type { Snapshot } from '../../../shared/bridge'
import type { BudgetPreview } from '../../../shared/budget'
import type { AddReport, InstrumentMatch } from '../../../shared/markets/instrument'
import { parseSymbolKey, symbolKey } from '../../../shared/markets/market'
import type { Watchlist } from '../../../shared/watchlist'

/**
 * The in-memory host's desk commands (FakeTickdeskApi): a small catalogue, adds that report per
 * entry like the host's, and a budget preview with Free-plan numbers (10 streamed, then one
 * second slower per polled symbol) so component tests can watch it change.
 */
export const FAKE_INSTRUMENTS: readonly InstrumentMatch[] = [
  {
    key: 'commodity:XAUUSD',
    market: 'commodity',
    symbol: 'XAUUSD',
    name: 'Gold spot',
    source: 'catalogue',
  },
  {
    key: 'futures:GC1!',
    market: 'futures',
    symbol: 'GC1!',
    name: 'Gold futures continuous',
    source: 'catalogue',
  },
  { key: 'hk:00700', market: 'hk', symbol: '00700', name: 'Tencent Holdings', source: 'catalogue' },
  {
    key: 'crypto:BTCUSDT',
    market: 'crypto',
    symbol: 'BTCUSDT',
    name: 'Bitcoin',
    source: 'catalogue',
  },
  { key: 'index:SPX', market: 'index', symbol: 'SPX', name: 'S&P 500', source: 'catalogue' },
]

export function searchFake(
  instruments: readonly InstrumentMatch[],
  query: string,
  limit = 12,
): InstrumentMatch[] {
  const q = query.trim().toLowerCase()
  if (q === '') return []
  return instruments
    .filter((i) => i.key.toLowerCase().includes(q) || i.name.toLowerCase().includes(q))
    .slice(0, limit)
}

/**
 * Resolves an entry as the host's catalogue does: market:SYMBOL, or a bare code it lists; a
 * market prefix it cannot read is INVALID_INPUT, a code it does not list NOT_FOUND.
 */
function resolveFake(
  instruments: readonly InstrumentMatch[],
  input: string,
): { ok: true; key: string } | { ok: false; code: string; message: string } {
  const trimmed = input.trim()
  const ref = parseSymbolKey(trimmed)
  if (ref !== null) return { ok: true, key: symbolKey(ref.market, ref.symbol) }
  if (trimmed.includes(':'))
    return { ok: false, code: 'INVALID_INPUT', message: `"${trimmed}" is not market:SYMBOL` }
  const listed = instruments.find((i) => i.symbol === trimmed.toUpperCase())
  if (listed) return { ok: true, key: listed.key }
  return { ok: false, code: 'NOT_FOUND', message: `No instrument "${trimmed}"` }
}

/**
 * Adds entries to the list in place and reports each, as the host does: an entry named twice
 * counts once, one the list holds is "present", one the fake service does not list is refused.
 */
export function addFake(
  list: Watchlist,
  inputs: readonly string[],
  unknown: ReadonlySet<string>,
  instruments: readonly InstrumentMatch[] = FAKE_INSTRUMENTS,
): AddReport {
  const report: AddReport = { added: [], present: [], rejected: [] }
  const seen = new Set<string>()
  for (const input of inputs) {
    const r = resolveFake(instruments, input)
    if (!r.ok) {
      report.rejected.push({ input, code: r.code, message: r.message })
      continue
    }
    if (seen.has(r.key)) continue
    seen.add(r.key)
    if (unknown.has(r.key))
      report.rejected.push({ input, code: 'UNKNOWN_SYMBOL', message: `Unknown symbol ${r.key}` })
    else if (list.symbols.includes(r.key)) report.present.push({ input, key: r.key })
    else {
      list.symbols.push(r.key)
      report.added.push({ input, key: r.key, note: '' })
    }
  }
  return report
}

export function previewFake(symbols: number, state: Snapshot): BudgetPreview {
  const polled = Math.max(0, symbols - 10)
  const every = polled === 0 ? null : 5 + polled
  return {
    plan: state.settings.plan,
    demo: state.status.demo,
    symbols,
    streamed: symbols - polled,
    polled,
    blocked: 0,
    pollEverySec: every,
    requestsPerMinute: polled === 0 ? 0 : 12,
    perMinute: 27,
    streamUsed: symbols - polled,
    streamCap: 10,
    warnings:
      every !== null && every > 15
        ? [{ code: 'POLL_SLOW', message: `would slow polling to every ~${every} s` }]
        : [],
  }
}
