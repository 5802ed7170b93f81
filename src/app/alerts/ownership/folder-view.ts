import { statSync } from 'node:fs'
import { FireJournal, type JournalFire } from '../../../core/persistence/fire-journal'
import type { DataStores } from '../../../core/persistence/stores'
import type { AlertRuleState, FiredAlert } from '../../../shared/alerts/alert'
import { undeliveredOf, type UndeliveredFire } from '../alert-outbox'
import { replayJournal } from '../alert-replay'

/**
 * The folder's alerts as any process that does not run them sees them: the owner's rule states
 * and history, brought up to date with the owner's fire journal (a fire is in the journal the
 * moment it fires, in the history half a second later), and the fires a target gave up on. Read
 * without a side effect (nothing moved aside, rewritten or removed: the files are the owner's),
 * and only when one of them changed.
 */

export interface FolderAlerts {
  states: AlertRuleState[]
  history: FiredAlert[]
  undelivered: UndeliveredFire[]
}

type ViewStores = Pick<DataStores, 'dir' | 'alerts' | 'alertStates' | 'alertHistory'>

export const EMPTY_VIEW: FolderAlerts = { states: [], history: [], undelivered: [] }

export class FolderView {
  private stamp = ''
  private seen: Set<string> | null = null
  private view: FolderAlerts = EMPTY_VIEW
  private readonly journal: FireJournal

  constructor(private readonly stores: ViewStores) {
    this.journal = new FireJournal(stores.dir)
  }

  get current(): FolderAlerts {
    return this.view
  }

  /**
   * Reads the files again if any changed. Null: nothing changed. `fresh`: fires not seen at the
   * previous read, oldest first (none at the first read: a viewer shows what fires after it came).
   */
  async refresh(): Promise<{ view: FolderAlerts; fresh: FiredAlert[] } | null> {
    const stamp = this.stampNow()
    if (stamp === this.stamp) return null
    this.stamp = stamp
    const fires = this.readJournal()
    const saved = await this.stores.alertStates.peek()
    const legacy = saved === null ? await this.stores.alerts.peek() : null
    const history = (await this.stores.alertHistory.peek()) ?? []
    const replayed = replayJournal({ states: saved ?? legacy?.states ?? [], history }, fires)
    this.view = {
      states: replayed.states,
      history: replayed.history,
      undelivered: undeliveredOf(fires),
    }
    const fresh = this.seen === null ? [] : replayed.history.filter((a) => !this.seen?.has(a.id))
    this.seen = new Set(replayed.history.map((a) => a.id))
    return { view: this.view, fresh }
  }

  private readJournal(): JournalFire[] {
    try {
      return this.journal.read().fires
    } catch {
      // Unreadable now (moved, no rights): the files alone say what fired.
      return []
    }
  }

  private stampNow(): string {
    const paths = [
      this.stores.alertStates.path,
      this.stores.alertHistory.path,
      this.journal.path,
      this.stores.alerts.path,
    ]
    return paths
      .map((p) => {
        try {
          const s = statSync(p)
          return `${s.ino}:${s.size}:${s.mtimeMs}`
        } catch {
          return '-'
        }
      })
      .join('|')
  }
}
