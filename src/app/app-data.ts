import type { StoreProblem } from '../core/persistence/json-store'
import { defaultWatchlists, type DataStores } from '../core/persistence/stores'
import type { AlertRule, FiredAlert } from '../shared/alerts/alert'
import type { PositionsFile } from '../shared/positions/position'
import type { Settings } from '../shared/settings'
import type { WatchlistState } from './watchlists/watchlist-book'

/**
 * The trader's own data, read at start; each damaged file is reported through `note`. The rule
 * states are not here: they are the alert owner's (the alert host reads them, or shows the
 * owner's).
 */
export interface AppData {
  settings: Settings
  lists: WatchlistState
  /** The alert rules (alerts.json), as the trader edits them here. */
  rules: AlertRule[]
  history: FiredAlert[]
  /** Symbols outside the shipped catalogue the service confirmed. */
  confirmed: string[]
  /** The trader's lots, base currency and currency overrides. */
  positions: PositionsFile
}

type Note = (problem: StoreProblem | null) => void

/** An empty list file (everything deleted, or a first start) gives the demo lists back. */
export async function loadAppData(stores: DataStores, note: Note): Promise<AppData> {
  const settings = await stores.settings.loadReporting(note)
  const lists = await stores.watchlists.loadReporting(note)
  const alerts = await stores.alerts.loadReporting(note)
  // Read, never repaired here: the history is the alert owner's, maybe another process's.
  const history = (await stores.alertHistory.peek()) ?? []
  return {
    settings,
    lists: lists.watchlists.length > 0 ? lists : defaultWatchlists(),
    rules: alerts.rules,
    history,
    confirmed: await stores.instruments.loadReporting(note),
    positions: await stores.positions.loadReporting(note),
  }
}
