import { heatmapPrefsOf, type HeatmapPrefs } from '../../../shared/chart-prefs'
import type { AppState } from '../state/app-state.svelte'
import { SavedPrefs } from '../state/saved-prefs.svelte'

/**
 * The heatmap's choices (colour by the day or since a moment, size alike, by traded value or by
 * position value), remembered in settings.chart.heatmap: a local change shows at once, then is
 * saved.
 */
export class HeatmapView extends SavedPrefs<HeatmapPrefs> {
  constructor(app: AppState, save: (patch: Partial<HeatmapPrefs>) => void) {
    super(() => heatmapPrefsOf(app.settings.chart), save)
  }
}
