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
   * The market's session now (src/shared/markets/market-sessions.ts). A closed market (or one at
   * lunch, in its daily halt) shows that instead of "Stale": its last price is simply the last
   * trade.
   */
  session?: { state: string; stateName: string; shortName?: string } | null
  /**
   * The price moved while the timetable says the market is shut (shared/markets/trading-hours.ts):
   * the data outranks the timetable, so the badge says where the price comes from, not "Closed".
   */
  outsideHours?: boolean
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
  if (
    input.session &&
    QUIET_SESSIONS.has(input.session.state) &&
    input.source !== null &&
    input.outsideHours !== true
  )
    return 'closed'
  if (input.source === null) return input.statusCode === 'NO_DATA' ? 'no-data' : 'waiting'
  if (input.source === 'cache') return 'cached'
  if (input.stale || input.feedState === 'offline' || input.feedState === 'stopped') return 'stale'
  return input.source === 'stream' ? 'live' : 'polled'
}

export function sourceBadge(input: BadgeInput): Badge {
  const kind = kindOf(input)
  const session = input.session
  const label =
    kind === 'closed' ? (session?.shortName ?? session?.stateName ?? 'Closed') : LABELS[kind]
  return { kind, label }
}

/** What sits beside the badge: short enough for the column, the whole of it in `title`. */
export interface SourceNote {
  text: string
  testid: string | undefined
  /** For the cell's tooltip; '' when the text says it all. */
  title: string
}

export interface NoteSession {
  stateName: string
  label: string
  nextShort: string
  holiday: string | null
}

/**
 * A shut market: when it next changes ("13:00", "Mon 09:30"; the venue's clock, its zone in the
 * title). A market trading outside its listed hours: "off-hours", with the timetable's word in
 * the title. Otherwise the price's age when it is not live.
 */
export function sourceNote(
  badge: Badge,
  session: NoteSession,
  outsideHours: boolean,
  age: string,
): SourceNote {
  if (badge.kind === 'closed') {
    const why = session.holiday === null ? '' : ` (${session.holiday})`
    return {
      text: session.nextShort,
      testid: 'session-next',
      title: `${session.stateName}${why}${session.label === '' ? '' : `, ${session.label}`}`,
    }
  }
  if (outsideHours && (badge.kind === 'live' || badge.kind === 'polled')) {
    return {
      text: 'off-hours',
      testid: 'outside-hours',
      title: `Trading outside listed hours: prices are moving while the timetable says ${session.stateName} (${session.label})`,
    }
  }
  if (badge.kind !== 'live' && age !== '') return { text: age, testid: 'quote-age', title: '' }
  return { text: '', testid: undefined, title: '' }
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
