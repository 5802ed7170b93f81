import { untrack } from 'svelte'
import type { Bar, Interval } from '../../../shared/quote'
import { hasCandleEndpoint } from '../../../shared/markets/market'
import type { AppState } from '../state/app-state.svelte'
import type { RowState } from '../state/row-state.svelte'
import { errorMessage } from '../bridge/bridge-error'
import { applyLastPrice } from './plot/bar-columns'
import { SHORT_HISTORY_BARS } from './plot/history-words'
import { openingCandidates, openingInterval } from './opening-interval'
import { FIRST_BARS, MAX_BARS } from './bar-counts'

/**
 * The bars of the symbol a detail chart shows: one getCandles per interval and limit (the newest
 * request wins), older bars when zooming out meets the first one (the limit doubles up to the
 * spec's 5000), the interval a built-bars market opens at, and live prices folded into the last
 * bar between fetches. Made during the component's set-up, so its effects live as long as it.
 */
export class DetailBars {
  interval = $state<Interval>('1h')
  bars = $state.raw<Bar[]>([])
  loading = $state(false)
  error = $state<string | null>(null)
  /** Bars asked for: doubled when zooming out meets the first bar, up to the spec's 5000. */
  limit = $state(FIRST_BARS)
  private request = 0
  private opening = 0

  constructor(
    private readonly app: AppState,
    private readonly key: string,
    private readonly row: RowState,
  ) {
    // Another interval starts again from the first request's bars.
    $effect.pre(() => {
      void this.interval
      this.limit = FIRST_BARS
    })
    $effect(() => this.fetch(this.interval, this.limit))
    $effect(() => {
      if (!hasCandleEndpoint(this.row.market)) void this.chooseOpening(untrack(() => this.interval))
    })
    // The last bar follows live quotes so the chart moves between candle fetches.
    $effect(() => {
      const price = this.row.last
      const ts = this.row.ts
      if (price === null) return
      const next = untrack(() => applyLastPrice(this.bars, this.interval, price, ts))
      if (next !== null) this.bars = next
    })
  }

  /** The trader's pick: it wins over an opening interval still being chosen. */
  pick(interval: Interval): void {
    this.opening++
    this.interval = interval
  }

  /** Zooming out met the first bar: fewer bars than asked means there are no older ones. */
  loadOlder(): void {
    if (this.loading || this.bars.length < this.limit || this.limit >= MAX_BARS) return
    this.limit = Math.min(MAX_BARS, this.limit * 2)
  }

  /** The first request of a series is out and nothing is shown yet. */
  get firstLoad(): boolean {
    return this.loading && this.bars.length === 0
  }

  /** Older bars are being fetched under a chart that shows some. */
  get loadingOlder(): boolean {
    return this.loading && this.bars.length > 0 && this.limit > FIRST_BARS
  }

  private fetch(interval: Interval, limit: number): void {
    const mine = ++this.request
    this.loading = true
    this.app.api
      .invoke('getCandles', { key: this.key, interval, limit })
      .then((result) => {
        if (mine !== this.request) return
        this.bars = result
        this.error = null
      })
      .catch((err: unknown) => {
        if (mine === this.request) this.error = errorMessage(err)
      })
      .finally(() => {
        if (mine === this.request) this.loading = false
      })
  }

  /**
   * A market without a candle endpoint opens at the coarsest interval with enough bars the app
   * built (opening-interval.ts: 1m when 1h has one bar). Those bars are the app's own, so counting
   * them costs the service nothing; a pick of the trader's meanwhile (pick) wins.
   */
  private async chooseOpening(wanted: Interval): Promise<void> {
    const mine = ++this.opening
    const counts: Partial<Record<Interval, number>> = {}
    for (const iv of openingCandidates(wanted)) {
      const got = await this.app.api
        .invoke('getCandles', { key: this.key, interval: iv, limit: SHORT_HISTORY_BARS })
        .catch(() => null)
      if (got === null || mine !== this.opening) return
      counts[iv] = got.length
      if (got.length >= SHORT_HISTORY_BARS) break
    }
    this.interval = openingInterval(wanted, counts, SHORT_HISTORY_BARS)
  }
}
