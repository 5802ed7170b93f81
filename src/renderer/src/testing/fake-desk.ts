import type { Snapshot } from '../../../shared/bridge'
import type { BudgetPreview } from '../../../shared/budget'
import type { AddReport, InstrumentMatch } from '../../../shared/instrument'
import { parseSymbolKey, symbolKey } from '../../../shared/market'
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

/** Adds market:SYMBOL entries to the list in place; anything else is "not found". */
export function addFake(
  list: Watchlist,
  inputs: readonly string[],
  unknown: ReadonlySet<string>,
): AddReport {
  const report: AddReport = { added: [], present: [], rejected: [] }
  for (const input of inputs) {
    const ref = parseSymbolKey(input)
    if (ref === null) {
      report.rejected.push({ input, code: 'NOT_FOUND', message: `No instrument "${input}"` })
      continue
    }
    const key = symbolKey(ref.market, ref.symbol)
    if (unknown.has(key))
      report.rejected.push({ input, code: 'UNKNOWN_SYMBOL', message: `Unknown symbol ${key}` })
    else if (list.symbols.includes(key)) report.present.push({ input, key })
    else {
      list.symbols.push(key)
      report.added.push({ input, key, note: '' })
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
