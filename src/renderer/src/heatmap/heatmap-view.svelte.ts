import { heatmapPrefsOf, type HeatmapPrefs } from '../../../shared/chart-prefs'
import type { AppState } from '../state/app-state.svelte'

/**
 * The heatmap's choices (colour by the day or since a moment, size alike, by traded value or by
 * position value), remembered in settings.chart.heatmap: a local change shows at once, then is
 * saved.
 */
export class HeatmapView {
  private local = $state<Partial<HeatmapPrefs>>({})
  private readonly merged = $derived.by(() => ({
    ...heatmapPrefsOf(this.app.settings.chart),
    ...this.local,
  }))

  constructor(
    private readonly app: AppState,
    private readonly save: (patch: Partial<HeatmapPrefs>) => void,
  ) {}

  get prefs(): HeatmapPrefs {
    return this.merged
  }

  set(patch: Partial<HeatmapPrefs>): void {
    this.local = { ...this.local, ...patch }
    this.save(patch)
  }
}
