/**
 * A view's choices remembered in settings (the wall's, the heatmap's): a local change shows at
 * once, over what the settings hold, and is handed to `save`; the settings catch up when the
 * host answers.
 */
export class SavedPrefs<T extends object> {
  private local = $state<Partial<T>>({})
  private readonly merged = $derived.by((): T => ({ ...this.stored(), ...this.local }))

  constructor(
    private readonly stored: () => T,
    private readonly save: (patch: Partial<T>) => void,
  ) {}

  get prefs(): T {
    return this.merged
  }

  set(patch: Partial<T>): void {
    this.local = { ...this.local, ...patch }
    this.save(patch)
  }
}
