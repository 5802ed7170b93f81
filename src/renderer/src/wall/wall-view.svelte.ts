import type { WallPrefs } from '../../../shared/chart-prefs'
import { wallPrefsOf } from '../../../shared/chart-prefs'
import type { AppState } from '../state/app-state.svelte'
import { SavedPrefs } from '../state/saved-prefs.svelte'
import { WallBars } from './wall-bars'

/**
 * The desk's choice between the table and the wall of mini charts, the wall's interval and tile
 * count (remembered in settings.chart.wall; a local change shows at once, then is saved), and
 * the tiles' bars, kept for the page's life so coming back to the wall costs no call.
 */
export class WallView extends SavedPrefs<WallPrefs> {
  readonly bars: WallBars

  constructor(app: AppState, save: (patch: Partial<WallPrefs>) => void) {
    super(() => wallPrefsOf(app.settings.chart), save)
    this.bars = new WallBars({
      fetch: (key, interval, limit) => app.api.invoke('getCandles', { key, interval, limit }),
      setTimer: (fn, ms) => setTimeout(fn, ms),
      plan: () => app.status.plan,
    })
  }
}
