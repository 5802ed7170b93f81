import type { DataStores } from '../../core/persistence/stores'
import type { AlertRule } from '../../shared/alerts/alert'
import { mergeRules } from './alert-rules-merge'

/**
 * alerts.json as a process that edits rules writes it (the app: add, remove, switch, snooze,
 * move a level): its rules, with any edit another process made since its last look (`alerts add`,
 * `alerts snooze`) merged in rather than undone (alert-rules-merge.ts). Any process may edit the
 * rules, whoever runs the alerts; the rule states are not in it (the owner's alert-states.json),
 * so an edit can never write an older state over a fire. Saves run one after another; settled()
 * resolves once the last has (a process taking the alerts over reads the file after that).
 */
export class RuleFile {
  /** The rules as this process last read or wrote them: the base of a merge. */
  private base: AlertRule[]
  private saving: Promise<unknown> = Promise.resolve()

  constructor(
    private readonly store: DataStores['alerts'],
    read: AlertRule[],
    /** The states alerts.json held before they had a file of their own: kept as they are. */
    private legacyStates: AlertRuleStateList = [],
  ) {
    this.base = read
  }

  /** Writes `rules`, merged with an outside edit; resolves to what was written. */
  save(rules: AlertRule[]): Promise<AlertRule[]> {
    const run = this.saving.then(async () => {
      const theirs = await this.store.outsideChange()
      if (theirs !== null) this.legacyStates = theirs.states
      const merged = theirs === null ? rules : mergeRules(this.base, rules, theirs.rules)
      await this.store.save({ rules: merged, states: this.legacyStates })
      this.base = merged
      return merged
    })
    this.saving = run.catch(() => undefined)
    return run
  }

  /** Another process's edit, taken in (the app's look at the file): the base of the next merge. */
  took(rules: AlertRule[]): void {
    this.base = rules
  }

  async settled(): Promise<void> {
    await this.saving
  }
}

type AlertRuleStateList = Awaited<ReturnType<DataStores['alerts']['load']>>['value']['states']
