import { randomUUID } from 'node:crypto'
import type { Clock } from '../core/clock'
import type { StoreProblem } from '../core/persistence/json-store'
import type { Notice } from '../shared/bridge'

/**
 * What the trader must be told and may dismiss: a damaged file moved aside, a full disk, a key
 * that will not be remembered. A cause is shown once: raised again (same code), it is merged into
 * the notice already shown, with the newest wording and a count, never stacked.
 */
export class NoticeBoard {
  private notices: Notice[] = []

  constructor(
    private readonly clock: Clock,
    private readonly onChange: (notices: Notice[]) => void,
  ) {}

  add(level: Notice['level'], code: string, message: string, detail: string | null = null): void {
    const at = this.clock.now()
    const same = this.notices.find((n) => n.code === code)
    const notice: Notice = same
      ? { ...same, level, message, detail, count: same.count + 1, at }
      : { id: randomUUID(), level, code, message, detail, count: 1, at }
    this.notices = same
      ? this.notices.map((n) => (n === same ? notice : n))
      : [...this.notices, notice]
    this.onChange(this.notices)
  }

  /** A data file that was damaged (moved aside) or could not be read: a warning naming it. */
  warnOfFile(problem: StoreProblem | null): void {
    if (problem) this.add('warning', problem.code, problem.message)
  }

  dismiss(id: string): void {
    this.notices = this.notices.filter((n) => n.id !== id)
    this.onChange(this.notices)
  }

  /** Withdraws the notice of a cause that no longer holds (a withheld key entered again). */
  withdraw(code: string): void {
    if (!this.notices.some((n) => n.code === code)) return
    this.notices = this.notices.filter((n) => n.code !== code)
    this.onChange(this.notices)
  }

  all(): Notice[] {
    return this.notices
  }
}
