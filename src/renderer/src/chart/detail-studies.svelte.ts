import type { Bar, Interval } from '../../../shared/quote'
import { studiesFor, studiesPatch, type ChartStudies } from '../../../shared/chart-prefs'
import type { AppState } from '../state/app-state.svelte'
import { errorMessage } from '../bridge/bridge-error'
import { barsToColumns } from './plot/bar-columns'
import type { CompareBars } from './price-plot-data'

/** Bars of the compare symbol: as many as the chart opens with. */
const COMPARE_BARS = 300

/**
 * The indicators of one symbol's chart, remembered in settings (a local write shows at once, then
 * is saved), and the bars of the symbol it is compared with: one getCandles per symbol and
 * interval, like the chart's own. Made during the component's set-up, so its effect lives as long.
 */
export class DetailStudies {
  private local = $state<ChartStudies | null>(null)
  error = $state<string | null>(null)
  private compareBars = $state.raw<{ key: string; interval: Interval; bars: Bar[] } | null>(null)
  private compareRequest = 0

  constructor(
    private readonly app: AppState,
    private readonly key: string,
    interval: () => Interval,
  ) {
    $effect(() => {
      const other = this.studies.compare
      const iv = interval()
      const mine = ++this.compareRequest
      if (other === null) return
      app.api
        .invoke('getCandles', { key: other, interval: iv, limit: COMPARE_BARS })
        .then((result) => {
          if (mine === this.compareRequest)
            this.compareBars = { key: other, interval: iv, bars: result }
        })
        .catch((err: unknown) => {
          if (mine === this.compareRequest) this.error = `${other}: ${errorMessage(err)}`
        })
    })
  }

  get studies(): ChartStudies {
    return this.local ?? studiesFor(this.app.settings.chart, this.key)
  }

  save(next: ChartStudies): void {
    this.local = next
    this.error = null
    this.app.api
      .invoke('updateSettings', { chart: studiesPatch(this.key, next) })
      .catch((err: unknown) => (this.error = errorMessage(err)))
  }

  /** The compare line's closes at the chart's interval, or null while none (or not yet). */
  compare(interval: Interval): CompareBars | null {
    const c = this.compareBars
    if (c === null || c.key !== this.studies.compare || c.interval !== interval) return null
    const cols = barsToColumns(c.bars)
    return { label: `${c.key} %`, times: cols[0], closes: cols[4] }
  }
}
