import type { AppHostApi } from '../app/host-api'
import { SettingsSchema, type Settings } from '../shared/settings'

/**
 * Main's read-only view of the settings it acts on (closeToTray, sounds, alertsPaused,
 * launchAtLogin, pinned): seeded from getSnapshot, kept current by 'settings' events. Main never
 * writes settings itself; it goes through invoke('updateSettings') like the renderer.
 */
export class HostSettings {
  private current: Settings
  private readonly listeners = new Set<(next: Settings, prev: Settings) => void>()
  private readonly unsubscribe: () => void

  private constructor(app: Pick<AppHostApi, 'subscribe'>, initial: Settings) {
    this.current = initial
    this.unsubscribe = app.subscribe((event) => {
      if (event.type === 'settings') this.replace(event.settings)
    })
  }

  /** Reads the snapshot once; if the app cannot give one, the schema defaults stand in. */
  static async load(app: Pick<AppHostApi, 'invoke' | 'subscribe'>): Promise<HostSettings> {
    const outcome = await app.invoke('getSnapshot', {})
    let initial = SettingsSchema.parse({})
    if (outcome.ok && typeof outcome.result === 'object' && outcome.result !== null) {
      const parsed = SettingsSchema.safeParse((outcome.result as { settings?: unknown }).settings)
      if (parsed.success) initial = parsed.data
    }
    return new HostSettings(app, initial)
  }

  get value(): Settings {
    return this.current
  }

  onChange(listener: (next: Settings, prev: Settings) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  close(): void {
    this.unsubscribe()
    this.listeners.clear()
  }

  private replace(next: Settings): void {
    const prev = this.current
    this.current = next
    for (const listener of this.listeners) listener(next, prev)
  }
}
