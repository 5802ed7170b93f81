import type { FeedState } from '../../../shared/status'
import type { QuoteSource, SymbolStatusCode } from '../../../shared/quote'

/**
 * What a row's badge says about where its price came from. A per-symbol problem wins over the
 * quote's source, because it explains why there is no live price (interface §Errors: 403 scope
 * codes mean "not in plan", 400 symbol codes mean the symbol itself is wrong).
 */
export type BadgeKind =
  | 'live'
  | 'polled'
  | 'cached'
  | 'stale'
  | 'waiting'
  | 'not-in-plan'
  | 'unknown-symbol'
  | 'not-supported'
  | 'no-data'
  | 'closed'

export interface Badge {
  kind: BadgeKind
  label: string
}

const LABELS: Record<BadgeKind, string> = {
  live: 'Live',
  polled: 'Polled',
  cached: 'Cached',
  stale: 'Stale',
  waiting: 'Waiting',
  'not-in-plan': 'Not in plan',
  'unknown-symbol': 'Unknown symbol',
  'not-supported': 'Not supported',
  'no-data': 'No data',
  closed: 'Closed',
}

export interface BadgeInput {
  source: QuoteSource | null
  stale: boolean
  statusCode: SymbolStatusCode | null
  feedState: FeedState
  /**
   * The market's session now (src/shared/market-sessions.ts). A closed market (or one at lunch,
   * in its daily halt) shows that instead of "Stale": its last price is simply the last trade.
   */
  session?: { state: string; stateName: string } | null
}

const QUIET_SESSIONS = new Set(['closed', 'break'])

function kindOf(input: BadgeInput): BadgeKind {
  switch (input.statusCode) {
    case 'MARKET_NOT_ENABLED':
    case 'API_KEY_SCOPE_DENIED':
    case 'FORBIDDEN':
      return 'not-in-plan'
    case 'UNKNOWN_SYMBOL':
    case 'INVALID_SYMBOL':
    case 'INVALID_REQUEST':
      return 'unknown-symbol'
    case 'NOT_SUPPORTED':
      return 'not-supported'
    default:
      break
  }
  if (input.session && QUIET_SESSIONS.has(input.session.state) && input.source !== null)
    return 'closed'
  if (input.source === null) return input.statusCode === 'NO_DATA' ? 'no-data' : 'waiting'
  if (input.source === 'cache') return 'cached'
  if (input.stale || input.feedState === 'offline' || input.feedState === 'stopped') return 'stale'
  return input.source === 'stream' ? 'live' : 'polled'
}

export function sourceBadge(input: BadgeInput): Badge {
  const kind = kindOf(input)
  return { kind, label: kind === 'closed' ? (input.session?.stateName ?? 'Closed') : LABELS[kind] }
}

/** Rows show stale styling whenever the price cannot be trusted to be current. */
export function looksStale(input: BadgeInput): boolean {
  const kind = kindOf(input)
  return (
    kind === 'stale' ||
    kind === 'cached' ||
    (input.source !== null && input.feedState === 'offline')
  )
}
