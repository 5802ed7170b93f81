import type { Market, SymbolKey } from '../../shared/markets/market'
import type { SymbolStatus } from '../../shared/quote'
import { DEFAULT_POLL_PACING, pollSpacingMs, type PollPacing } from '../feed/budget-preview'
import type { Clock, TimerHandle } from '../clock'
import { FORBIDDEN_RECHECK_MS, TickdeskError } from '../errors'
import { quoteRoute } from '../rest/market-routes'
import type { Batch } from './poll-batch'
import { PollOutcomes } from './poll-outcomes'
import { PollQueue } from './poll-queue'
import { rideAlongMs } from './poll-pace'
import { PollVerdicts } from './poll-verdicts'
import type { QuoteUpdate } from '../quotes/quote-fields'
import { askKline, askQuotes, type PollAsker } from './poll-request'
import type { RateGovernor } from '../rest/rate-governor'
import type { RestClient } from '../rest/rest-client'

/**
 * QuotePoller: keeps every symbol that is not streamed as fresh as the shared budget allows.
 *
 * Loop: a self-rescheduling setTimeout on the injected clock (never setInterval). Each tick sends
 * at most one request: the batch holding the stalest due symbol, filled with up to 50 other due
 * symbols of the same endpoint family (spec: Limits, 1 to 50 symbols), then, while it has room,
 * with symbols of that family falling due before the next call could go (rideAlongMs). Ticks
 * are paced evenly at 60 s / (governor ceiling x share), and a symbol is not re-polled sooner
 * than minIntervalMs (less the ride-along horizon when it rides along a call with room).
 * Polls are the governor's background kind: they spend what nobody else needs. The
 * governor gates every tick: while it blocks REST (pause, quota, stop) the loop sleeps and its
 * onChange wakes the loop again. Urgent work skips the pacing, never the budget: pollNow()
 * (snapshots, also of streamed symbols) and the parts of a refused batch.
 *
 * Every request, the first snapshot as much as the hundredth poll, goes through the same
 * outcomes (the account keeps flowing):
 *   400 INVALID_SYMBOL / UNKNOWN_SYMBOL / INVALID_REQUEST on a batch: the service fails the whole
 *     request, so the batch is split at once (poll-batch.ts: named symbols, markets, new versus
 *     answered, halves) until the refused symbol stands alone; it gets that status and is asked
 *     again only after badSymbolRetryMs (>= 15 min) or once the trader re-adds it.
 *   403 other than the account-wide codes (MARKET_NOT_ENABLED, API_KEY_SCOPE_DENIED, or a 403
 *     without a code): a batch mixing markets is split per market; a single-market batch blocks
 *     that family+market for recheckMs (>= 15 min, the stream's wait after a 403 too).
 *   A symbol missing from a successful answer gets NO_DATA and stays polled.
 * Agriculture rides the multi-market quote (spec: What the service does, agriculture); an agri
 * symbol it refuses or leaves out, or all of them after a 403, falls back to the close of its
 * latest 1m agri/kline bar: one call per symbol, at most once per KLINE_FALLBACK_MS, paced and
 * budgeted like every poll.
 */
export interface QuotePollerOptions {
  client: RestClient
  governor: RateGovernor
  clock: Clock
  onUpdates: (u: QuoteUpdate[]) => void
  onSymbolStatus: (s: SymbolStatus) => void
  onError?: (e: TickdeskError) => void
  /**
   * Fraction of the governed per-minute ceiling polling paces itself to (default 1: the whole
   * budget, which polls give back to candles and handshakes when they wait: rate-governor).
   */
  share?: number
  /** No symbol is polled more often than this (default 5 s), but for rideAlongMs early. */
  minIntervalMs?: number
  maxInFlight?: number
  /** Recheck of a blocked family/market (default 15 min). */
  recheckMs?: number
  /** Retry of a symbol the service called invalid or unknown (default 30 min). */
  badSymbolRetryMs?: number
  /** A quote row carried the service's own tag for a market (ticker-quote.ts `tags`). */
  onServiceTag?: (market: Market, tag: string) => void
  /** The service answered a call, quotes in it or not. */
  onAnswered?: () => void
}

export { BACKGROUND_POLL_MS, KLINE_FALLBACK_MS, SLOW_POLL_MS } from './poll-queue'
export { RIDE_ALONG_MS } from './poll-pace'

export class QuotePoller {
  private readonly opts: QuotePollerOptions
  private readonly clock: Clock
  private readonly share: number
  private readonly minIntervalMs: number
  private readonly maxInFlight: number
  private readonly recheckMs: number
  private readonly badSymbolRetryMs: number
  private readonly verdicts = new PollVerdicts()
  private readonly queue: PollQueue
  /** What each answer or refusal does to the poll set (poll-outcomes.ts). */
  private readonly outcomes: PollOutcomes
  private inFlight = 0
  private running = false
  private timer: TimerHandle | null = null
  private nextPaceAt = 0
  private abort = new AbortController()
  private unsubscribe: (() => void) | null = null
  private governorKey = ''
  /** How a batch is asked (poll-request.ts). */
  private readonly asker: PollAsker

  constructor(opts: QuotePollerOptions) {
    this.opts = opts
    this.clock = opts.clock
    this.share = opts.share ?? DEFAULT_POLL_PACING.share
    this.minIntervalMs = opts.minIntervalMs ?? DEFAULT_POLL_PACING.minIntervalMs
    this.maxInFlight = opts.maxInFlight ?? 2
    this.recheckMs = Math.max(FORBIDDEN_RECHECK_MS, opts.recheckMs ?? FORBIDDEN_RECHECK_MS)
    this.badSymbolRetryMs = Math.max(FORBIDDEN_RECHECK_MS, opts.badSymbolRetryMs ?? 30 * 60_000)
    this.queue = new PollQueue(this.verdicts, this.minIntervalMs)
    this.outcomes = new PollOutcomes({
      ...{ clock: opts.clock, queue: this.queue, verdicts: this.verdicts },
      ...{ recheckMs: this.recheckMs, badSymbolRetryMs: this.badSymbolRetryMs },
      onUpdates: opts.onUpdates,
      onSymbolStatus: opts.onSymbolStatus,
      onError: opts.onError,
      onAnswered: opts.onAnswered,
    })
    this.asker = {
      client: opts.client,
      lookup: (key) => this.queue.lookup(key),
      signal: () => this.abort.signal,
      now: () => this.clock.now(),
      onServiceTag: opts.onServiceTag,
    }
  }

  /**
   * The symbols to poll (everything watched but not streamed); malformed keys are ignored. Those
   * in `background` (only on lists out of view) are polled at most every BACKGROUND_POLL_MS.
   */
  setSymbols(keys: Iterable<SymbolKey>, background?: ReadonlySet<SymbolKey>): void {
    const now = this.clock.now()
    for (const t of this.queue.setSymbols(keys, background)) {
      const verdict = this.queue.verdictFor(t, now)
      if (verdict) this.outcomes.setStatus(t.key, verdict.code, verdict.message)
    }
    const statuses = this.outcomes.statuses
    for (const key of statuses.keys()) if (!this.queue.tracked.has(key)) statuses.delete(key)
    this.wake()
  }

  /** These polled symbols are helpers (FX conversion pairs): asked once a minute (SLOW_POLL_MS). */
  setSlow(keys: Iterable<SymbolKey>): void {
    this.queue.slow = new Set(keys)
    this.wake()
  }

  /** A market 403 frame on the stream: polling stops as after REST's; returns REST's words. */
  refuseMarket(market: Market, code: string): string {
    return this.outcomes.blockMarket(quoteRoute(market).family, market, code)
  }

  /** Whether a quote for this symbol came back in the last minIntervalMs (a fresh snapshot). */
  answeredLately(key: SymbolKey): boolean {
    const at = this.queue.lookup(key)?.lastPolledAt ?? null
    return at !== null && this.clock.now() - at < this.minIntervalMs
  }

  /**
   * The trader stopped watching it: what the service said about it is asked afresh next time,
   * and an answer on its way for it is not handed on.
   */
  forget(key: SymbolKey): void {
    this.verdicts.forget(key)
    this.queue.unwatched(key)
  }

  start(): void {
    if (this.running) return
    this.running = true
    this.abort = new AbortController()
    this.unsubscribe = this.opts.governor.onChange((s) => {
      const key = `${s.state}|${s.retryAt}|${s.perMinute}`
      if (key === this.governorKey) return
      this.governorKey = key
      this.wake()
    })
    this.wake()
  }

  stop(): void {
    this.running = false
    this.clock.clearTimeout(this.timer)
    this.timer = null
    this.unsubscribe?.()
    this.unsubscribe = null
    this.abort.abort()
  }

  /** Polls these symbols (default: all polled ones) as soon as the budget allows. */
  pollNow(keys?: SymbolKey[]): void {
    this.queue.pollNow(keys, this.clock.now())
    this.wake()
  }

  /**
   * Stream samples (core/trust): streamed symbols asked over REST once. `urgent`: now, as a
   * snapshot is; otherwise riding the next call of their family, alone only after RIDE_WAIT_MS.
   */
  sample(keys: SymbolKey[], urgent: boolean): void {
    if (urgent) return this.pollNow(keys)
    this.queue.sample(keys, this.clock.now())
    this.wake()
  }

  /** What stream samples cost: samples asked, and calls that carried nothing else. */
  sampleCounts(): { asked: number; callsOfTheirOwn: number } {
    return { ...this.queue.samples.counts }
  }

  /** Freshness: size of the poll set, last successful poll per symbol, requests in flight. */
  stats(): { polled: number; lastPolledAt: Record<SymbolKey, number>; inFlight: number } {
    const lastPolledAt: Record<SymbolKey, number> = {}
    for (const t of this.queue.tracked.values())
      if (t.lastPolledAt !== null) lastPolledAt[t.key] = t.lastPolledAt
    return { polled: this.queue.tracked.size, lastPolledAt, inFlight: this.inFlight }
  }

  private wake(): void {
    if (!this.running) return
    this.clock.clearTimeout(this.timer)
    this.timer = this.clock.setTimeout(() => this.tick(), 0)
  }

  private schedule(ms: number): void {
    this.clock.clearTimeout(this.timer)
    this.timer = this.clock.setTimeout(() => this.tick(), ms)
  }

  private tick(): void {
    this.timer = null
    if (!this.running) return
    const gate = this.opts.governor.delayFor('poll')
    if (gate === Infinity) return
    if (gate > 0) return this.schedule(gate)
    if (this.inFlight >= this.maxInFlight) return
    const now = this.clock.now()
    const hurry = this.queue.hasUrgentWork(now)
    if (!hurry && now < this.nextPaceAt) return this.schedule(this.nextPaceAt - now)
    const next = this.queue.nextBatch(now)
    const q = this.queue
    const batch =
      next &&
      q.withSamples(q.withQuietRiders(q.topUp(next, now, rideAlongMs(this.spacing())), now), now)
    if (!batch) {
      // Nothing due: wake when the next symbol is (verdicts expire too: look at least this often).
      const due = this.queue.nextDueAt(now) - now
      return this.schedule(Math.max(1, Math.min(due, this.minIntervalMs)))
    }
    this.nextPaceAt = now + this.spacing()
    void this.send(batch)
    this.schedule(hurry ? 0 : this.spacing())
  }

  /** The pacing parameters, for the plan-budget preview (budget-preview.ts). */
  pacing(): PollPacing {
    return { share: this.share, minIntervalMs: this.minIntervalMs }
  }

  /** Even pacing: the poll share of the governed ceiling, spread over the governor's window. */
  private spacing(): number {
    return pollSpacingMs(this.opts.governor.snapshot().perMinute, this.share)
  }

  private async send(batch: Batch): Promise<void> {
    this.inFlight += 1
    const now = this.clock.now()
    this.queue.begin(batch, now)
    let splitFurther = false
    try {
      const answer = batch.kline
        ? await askKline(this.asker, batch)
        : await askQuotes(
            this.asker,
            batch,
            this.outcomes.paramName.get(batch.route.family) ?? 'symbols',
          )
      splitFurther = this.outcomes.accept(batch, answer, now)
    } catch (error) {
      splitFurther = this.outcomes.reject(
        batch,
        error instanceof TickdeskError
          ? error
          : new TickdeskError({ code: 'NETWORK', message: String(error) }),
      )
    } finally {
      this.inFlight -= 1
      this.queue.end(batch, splitFurther)
      // Parts of a refused batch go at once, not at the next paced slot.
      if (this.running && (this.timer === null || splitFurther)) this.wake()
    }
  }
}
