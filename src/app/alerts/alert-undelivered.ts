import type { UndeliveredView } from '../../shared/alerts/undelivered'
import type { UndeliveredFire } from './alert-loop'

/** Undelivered fires as the alerts panel shows them (bridge: `undelivered`), oldest first. */
export function undeliveredViews(fires: readonly UndeliveredFire[]): UndeliveredView[] {
  return fires.map((u) => ({
    fireId: u.alert.id,
    key: u.alert.key,
    message: u.alert.message.slice(0, 500),
    at: u.alert.at,
    to: u.to.slice(0, 100),
    why: u.why,
    gaveUpAt: u.at,
  }))
}
