import type { FiredAlert } from '../shared/alerts/alert'
import type { BridgeEvent } from '../shared/bridge'

/**
 * The app's two outward streams: bridge events for every renderer a host carries them to, and
 * fired alerts for the host's OS notifications (which must work with no window open).
 */
export class EventHub {
  private readonly listeners = new Set<(event: BridgeEvent) => void>()
  private readonly alertListeners = new Set<(alert: FiredAlert) => void>()

  emit(event: BridgeEvent): void {
    for (const l of this.listeners) l(event)
  }

  subscribe(listener: (event: BridgeEvent) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  alertFired(alert: FiredAlert): void {
    for (const l of this.alertListeners) l(alert)
  }

  onAlertFired(listener: (alert: FiredAlert) => void): () => void {
    this.alertListeners.add(listener)
    return () => this.alertListeners.delete(listener)
  }
}
