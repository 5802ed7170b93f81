import { randomUUID } from 'node:crypto'
import type { Clock } from '../core/clock'
import type { Notice } from '../shared/bridge'

/**
 * What the trader must be told and may dismiss: a damaged file moved aside, a full disk, no
 * keychain. The same message is never stacked twice.
 */
export class NoticeBoard {
  private notices: Notice[] = []

  constructor(
    private readonly clock: Clock,
    private readonly onChange: (notices: Notice[]) => void,
  ) {}

  add(level: Notice['level'], code: string, message: string): void {
    if (this.notices.some((n) => n.code === code && n.message === message)) return
    this.notices = [
      ...this.notices,
      { id: randomUUID(), level, code, message, at: this.clock.now() },
    ]
    this.onChange(this.notices)
  }

  dismiss(id: string): void {
    this.notices = this.notices.filter((n) => n.id !== id)
    this.onChange(this.notices)
  }

  all(): Notice[] {
    return this.notices
  }
}
