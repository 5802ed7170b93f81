import type { UndeliveredView } from '../../shared/alerts/undelivered'
import type { AlertLoop } from './alert-loop'

/** The alert loop's undelivered fires as the alerts panel shows them (bridge: `undelivered`). */
export function undeliveredViews(loop: Pick<AlertLoop, 'owed'>): UndeliveredView[] {
  return loop.owed.undelivered().map((u) => ({
    fireId: u.alert.id,
    key: u.alert.key,
    message: u.alert.message.slice(0, 500),
    at: u.alert.at,
    to: u.to.slice(0, 100),
    why: u.why,
    gaveUpAt: u.at,
  }))
}
