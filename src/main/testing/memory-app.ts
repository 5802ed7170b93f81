import type { AppHostApi, TrayQuote } from '../../app/host-api'
import { COMMANDS, isCommandName, type BridgeEvent, type CommandOutcome } from '../../shared/bridge'
import type { FiredAlert } from '../../shared/alerts/alert'
import { mergeSettings, NO_KEY_INFO, SettingsSchema, type Settings } from '../../shared/settings'

/**
 * A small, real, in-memory AppHostApi for host specs: it validates commands like the real service,
 * keeps settings (getSnapshot / updateSettings), records every accepted command, and lets a spec
 * emit events, fire alerts and set the pinned tray prices.
 */
export class MemoryApp implements AppHostApi {
  settings: Settings = SettingsSchema.parse({})
  readonly received: Array<{ command: string; params: unknown }> = []
  tray: TrayQuote[] = []
  resumes = 0
  closed = false
  private readonly listeners = new Set<(event: BridgeEvent) => void>()
  private readonly alertListeners = new Set<(alert: FiredAlert) => void>()

  async invoke(command: string, params: unknown): Promise<CommandOutcome<unknown>> {
    if (!isCommandName(command))
      return { ok: false, error: { code: 'INVALID_INPUT', message: 'unknown' } }
    const parsed = COMMANDS[command].params.safeParse(params)
    if (!parsed.success)
      return { ok: false, error: { code: 'INVALID_INPUT', message: parsed.error.message } }
    this.received.push({ command, params })
    switch (command) {
      case 'getSnapshot':
        return { ok: true, result: { settings: this.settings } }
      case 'updateSettings':
        // Merge the raw patch: zod 4 fills .default()s inside .partial(), so parsed.data is not a patch.
        this.settings = SettingsSchema.parse(
          mergeSettings(this.settings, params as Parameters<typeof mergeSettings>[1]),
        )
        this.emit({
          type: 'settings',
          settings: this.settings,
          keyInfo: NO_KEY_INFO,
        })
        return { ok: true, result: this.settings }
      default:
        return { ok: true, result: null }
    }
  }

  subscribe(listener: (event: BridgeEvent) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  onAlertFired(listener: (alert: FiredAlert) => void): () => void {
    this.alertListeners.add(listener)
    return () => this.alertListeners.delete(listener)
  }

  trayQuotes(): TrayQuote[] {
    return this.tray
  }

  /** The Electron host draws no cached snapshot (the browser host does). */
  cachedDesk(): null {
    return null
  }

  /** The sleep lengths the host reported, in order. */
  readonly resumeGaps: number[] = []

  announceOwedAlerts(): void {}

  notifyResume(gapMs = 0): void {
    this.resumes++
    this.resumeGaps.push(gapMs)
  }

  async close(): Promise<void> {
    this.closed = true
  }

  emit(event: BridgeEvent): void {
    for (const listener of this.listeners) listener(event)
  }

  fire(alert: FiredAlert): void {
    for (const listener of this.alertListeners) listener(alert)
  }

  listenerCount(): number {
    return this.listeners.size
  }

  alertListenerCount(): number {
    return this.alertListeners.size
  }
}
