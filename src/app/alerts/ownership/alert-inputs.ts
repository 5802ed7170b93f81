import type { StoreProblem } from '../../../core/persistence/json-store'
import type { DataStores } from '../../../core/persistence/stores'
import type { AlertRule } from '../../../shared/alerts/alert'
import type { ServiceRef } from '../../../shared/alerts/alert-service'
import type { Settings } from '../../../shared/settings'
import type { Watchlist } from '../../../shared/watchlist'
import { folderService } from '../alert-rule-service'

/**
 * What the alerts are run on, and where each process learns it:
 *   rules and lists  the app edits them itself (appInputs: its own state, pushed as it changes);
 *                    `alerts run` and `watch --run-alerts` read the folder's files (folderInputs)
 *   pause, quiet hours and the folder's service
 *                    the folder's, in settings.json, for every process alike (FolderSettings):
 *                    whoever runs the alerts honours a pause set in any app on the folder
 */
export interface AlertInputs {
  rules(): readonly AlertRule[]
  lists(): readonly Watchlist[]
  /** Re-reads what another process may have changed; true when the rules or the lists did. */
  refresh(): Promise<boolean>
}

/** The app's rules and lists, as its own state holds them (it tells the host when they change). */
export function appInputs(state: () => { rules: AlertRule[]; lists: Watchlist[] }): AlertInputs {
  return {
    rules: () => state().rules,
    lists: () => state().lists,
    refresh: async () => false,
  }
}

/** The rules and lists as the folder's files hold them, re-read on refresh(). */
export async function folderInputs(
  stores: Pick<DataStores, 'alerts' | 'watchlists'>,
  report: (p: StoreProblem | null) => void,
): Promise<AlertInputs> {
  let rules = (await stores.alerts.loadReporting(report)).rules
  let listed = (await stores.watchlists.loadReporting(report)).watchlists
  return {
    rules: () => rules,
    lists: () => listed,
    async refresh() {
      const nextRules = await stores.alerts.outsideChange()
      const nextLists = await stores.watchlists.outsideChange()
      if (nextRules !== null) rules = nextRules.rules
      if (nextLists !== null && nextLists.watchlists.length > 0) listed = nextLists.watchlists
      return nextRules !== null || nextLists !== null
    },
  }
}

/** The folder's alert settings (settings.json), as every process reads them. */
export class FolderSettings {
  private value: Pick<Settings, 'alertsPaused' | 'quietHours' | 'baseUrl'>

  constructor(
    private readonly store: DataStores['settings'],
    initial: Pick<Settings, 'alertsPaused' | 'quietHours' | 'baseUrl'>,
  ) {
    this.value = initial
  }

  get paused(): boolean {
    return this.value.alertsPaused
  }

  get quietHours(): Settings['quietHours'] {
    return this.value.quietHours
  }

  /** Where a rule without a service of its own belongs: the service the app's settings name. */
  get folder(): ServiceRef {
    return folderService(this.value)
  }

  /** This process changed them (the app's settings). */
  take(settings: Pick<Settings, 'alertsPaused' | 'quietHours' | 'baseUrl'>): void {
    this.value = settings
  }

  /** Reads the file as it is now (another app on the folder may have paused the alerts). */
  async refresh(): Promise<boolean> {
    const next = await this.store.peek()
    if (next === null) return false
    const changed =
      next.alertsPaused !== this.value.alertsPaused ||
      next.baseUrl !== this.value.baseUrl ||
      JSON.stringify(next.quietHours) !== JSON.stringify(this.value.quietHours)
    this.value = next
    return changed
  }
}
