import { parseSymbolKey, symbolKey, type Market, type SymbolKey } from '../shared/market'
import type { SymbolStatus, SymbolStatusCode } from '../shared/quote'
import type { Clock, TimerHandle } from './clock'
import { MARKET_403, SYMBOL_400, TickdeskError } from './errors'
import { MAX_SYMBOLS_PER_CALL, pollRoute, type PollRoute, type Route } from './market-routes'
import type { QuoteUpdate } from './quote-fields'
import type { RateGovernor } from './rate-governor'
import type { RestClient } from './rest-client'
import { parseTickerQuotes, quoteFromLatestBar } from './ticker-quote'

/**
 * QuotePoller: keeps every symbol that is not streamed as fresh as the shared budget allows.
 *
 * Loop: a self-rescheduling setTimeout on the injected clock (never setInterval). Each tick sends
 * at most one request: the batch holding the stalest due symbol, filled with up to 50 other stale
 * symbols of the same endpoint family (spec: Limits, 1 to 50 symbols). Ticks are paced evenly at
 * 60 s / (governor ceiling x share), so polling leaves room for candles and stream handshakes, and
 * a symbol is not re-polled sooner than minIntervalMs. The governor gates every tick: while it
 * blocks REST (pause, quota, stop) the loop sleeps and its onChange wakes the loop again.
 * pollNow() marks symbols urgent (also streamed ones, to fill a reconnect gap): they go first and
 * skip the pacing, still within the governor's budget.
 *
 * Per-symbol outcomes (the account keeps flowing):
 *   400 INVALID_SYMBOL / UNKNOWN_SYMBOL on a batch: the service fails the whole request, so the
 *     batch is bisected (halves queued first, paced like any poll) until the bad symbol stands
 *     alone; it gets that status and is retried only after badSymbolRetryMs (>= 15 min) or when it
 *     leaves and re-enters the poll set.
 *   403 MARKET_NOT_ENABLED / API_KEY_SCOPE_DENIED: a batch mixing markets is split per market; a
 *     single-market batch blocks that family+market for recheckMs (>= 15 min) with that status.
 *   A symbol missing from a successful answer gets NO_DATA and stays polled.
 * Agriculture has no quote endpoint (spec: Endpoints): its last price is the close of the latest 1m
 * agri/kline bar, one kline call per agri symbol.
 */
export interface QuotePollerOptions {
  client: RestClient
  governor: RateGovernor
  clock: Clock
  onUpdates: (u: QuoteUpdate[]) => void
  onSymbolStatus: (s: SymbolStatus) => void
  onError?: (e: TickdeskError) => void
  /** Fraction of the governed per-minute ceiling polling may use (default 0.8). */
  share?: number
  /** No symbol is polled more often than this (default 5 s). */
  minIntervalMs?: number
  maxInFlight?: number
  /** Recheck of a blocked family/market (default 15 min). */
  recheckMs?: number
  /** Retry of a symbol the service called invalid or unknown (default 30 min). */
  badSymbolRetryMs?: number
}

interface Tracked {
  key: SymbolKey
  market: Market
  symbol: string
  lastAttemptAt: number
  lastPolledAt: number | null
  badUntil: number
}

interface Batch {
  route: Route
  agri: boolean
  keys: SymbolKey[]
}

const MIN_RECHECK_MS = 15 * 60_000

export class QuotePoller {
  private readonly opts: QuotePollerOptions
  private readonly clock: Clock
  private readonly share: number
  private readonly minIntervalMs: number
  private readonly maxInFlight: number
  private readonly recheckMs: number
  private readonly badSymbolRetryMs: number
  private tracked = new Map<SymbolKey, Tracked>()
  /** Symbols polled once on request but not part of the poll set (streamed ones after a gap). */
  private readonly oneShot = new Map<SymbolKey, Tracked>()
  private readonly urgent = new Set<SymbolKey>()
  private pending: Batch[] = []
  private readonly blocks = new Map<
    string,
    { until: number; code: SymbolStatusCode; message: string }
  >()
  private readonly statuses = new Map<SymbolKey, SymbolStatusCode>()
  private readonly inFlightKeys = new Set<SymbolKey>()
  private inFlight = 0
  private running = false
  private timer: TimerHandle | null = null
  private nextPaceAt = 0
  private abort = new AbortController()
  private unsubscribe: (() => void) | null = null
  private governorKey = ''

  constructor(opts: QuotePollerOptions) {
    this.opts = opts
    this.clock = opts.clock
    this.share = opts.share ?? 0.8
    this.minIntervalMs = opts.minIntervalMs ?? 5_000
    this.maxInFlight = opts.maxInFlight ?? 2
    this.recheckMs = Math.max(MIN_RECHECK_MS, opts.recheckMs ?? MIN_RECHECK_MS)
    this.badSymbolRetryMs = Math.max(MIN_RECHECK_MS, opts.badSymbolRetryMs ?? 30 * 60_000)
  }

  /** The symbols to poll (everything watched but not streamed); malformed keys are ignored. */
  setSymbols(keys: Iterable<SymbolKey>): void {
    const next = new Map<SymbolKey, Tracked>()
    for (const raw of keys) {
      const ref = parseSymbolKey(raw)
      if (!ref) continue
      const key = symbolKey(ref.market, ref.symbol)
      const known = this.tracked.get(key)
      if (known) {
        next.set(key, known)
        continue
      }
      next.set(key, fresh(key, ref.market, ref.symbol))
      const route = pollRoute(ref.market)
      if (!route) this.setStatus(key, 'NOT_SUPPORTED', `No endpoint serves ${ref.market} quotes`)
      const block = route ? this.blocks.get(blockKey(route.route, ref.market)) : undefined
      if (block && block.until > this.clock.now()) this.setStatus(key, block.code, block.message)
    }
    this.tracked = next
    for (const key of this.statuses.keys()) if (!next.has(key)) this.statuses.delete(key)
    this.wake()
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
    for (const raw of keys ?? [...this.tracked.keys()]) {
      const ref = parseSymbolKey(raw)
      if (!ref || !pollRoute(ref.market)) continue
      const key = symbolKey(ref.market, ref.symbol)
      if (!this.tracked.has(key) && !this.oneShot.has(key)) {
        this.oneShot.set(key, fresh(key, ref.market, ref.symbol))
      }
      this.urgent.add(key)
    }
    this.wake()
  }

  /** Freshness: size of the poll set, last successful poll per symbol, requests in flight. */
  stats(): { polled: number; lastPolledAt: Record<SymbolKey, number>; inFlight: number } {
    const lastPolledAt: Record<SymbolKey, number> = {}
    for (const t of this.tracked.values())
      if (t.lastPolledAt !== null) lastPolledAt[t.key] = t.lastPolledAt
    return { polled: this.tracked.size, lastPolledAt, inFlight: this.inFlight }
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
    const gate = this.opts.governor.delayFor('rest')
    if (gate === Infinity) return
    if (gate > 0) return this.schedule(gate)
    if (this.inFlight >= this.maxInFlight) return
    const now = this.clock.now()
    const hurry = this.urgent.size > 0
    if (!hurry && now < this.nextPaceAt) return this.schedule(this.nextPaceAt - now)
    const batch = this.nextBatch(now)
    if (!batch) return this.schedule(Math.min(this.spacing(), this.minIntervalMs))
    this.nextPaceAt = now + this.spacing()
    void this.send(batch)
    this.schedule(hurry ? 0 : this.spacing())
  }

  /** Even pacing: the poll share of the governed per-minute ceiling, spread over the minute. */
  private spacing(): number {
    const perMinute = this.opts.governor.snapshot().perMinute
    return Math.ceil(60_000 / Math.max(1, Math.floor(perMinute * this.share)))
  }

  private lookup(key: SymbolKey): Tracked | undefined {
    return this.tracked.get(key) ?? this.oneShot.get(key)
  }

  private nextBatch(now: number): Batch | null {
    while (this.pending.length > 0) {
      const split = this.pending.shift() as Batch
      const keys = split.keys.filter((k) => this.lookup(k) && !this.inFlightKeys.has(k))
      if (keys.length > 0) return { ...split, keys }
    }
    const due: Tracked[] = []
    for (const key of this.urgent) {
      const t = this.lookup(key)
      if (!t) this.urgent.delete(key)
      else if (this.eligible(t, now)) due.push(t)
    }
    const urgentCount = due.length
    for (const t of this.tracked.values()) {
      if (this.urgent.has(t.key) || !this.eligible(t, now)) continue
      if (now - t.lastAttemptAt >= this.minIntervalMs) due.push(t)
    }
    const rest = due.slice(urgentCount).sort((a, b) => a.lastAttemptAt - b.lastAttemptAt)
    const ordered = [...due.slice(0, urgentCount), ...rest]
    const head = ordered[0]
    if (!head) return null
    const route = pollRoute(head.market) as PollRoute
    if (route.agri) return { ...route, keys: [head.key] }
    const keys = ordered
      .filter((t) => pollRoute(t.market)?.route.family === route.route.family)
      .slice(0, MAX_SYMBOLS_PER_CALL)
      .map((t) => t.key)
    return { ...route, keys }
  }

  private eligible(t: Tracked, now: number): boolean {
    if (this.inFlightKeys.has(t.key) || t.badUntil > now) return false
    const route = pollRoute(t.market)
    if (!route) return false
    const block = this.blocks.get(blockKey(route.route, t.market))
    return !block || block.until <= now
  }

  private async send(batch: Batch): Promise<void> {
    this.inFlight += 1
    const now = this.clock.now()
    for (const key of batch.keys) {
      this.inFlightKeys.add(key)
      this.urgent.delete(key)
      const t = this.lookup(key)
      if (t) t.lastAttemptAt = now
    }
    try {
      const updates = batch.agri ? await this.pollAgri(batch) : await this.pollQuotes(batch)
      this.accept(batch, updates)
    } catch (error) {
      this.reject(
        batch,
        error instanceof TickdeskError
          ? error
          : new TickdeskError({ code: 'NETWORK', message: String(error) }),
      )
    } finally {
      this.inFlight -= 1
      for (const key of batch.keys) {
        this.inFlightKeys.delete(key)
        this.oneShot.delete(key)
      }
      if (this.running && this.timer === null) this.wake()
    }
  }

  private async pollQuotes(batch: Batch): Promise<QuoteUpdate[]> {
    const refs = batch.keys.map((k) => this.lookup(k)).filter((t): t is Tracked => t !== undefined)
    const symbols = [...new Set(refs.map((t) => t.symbol))]
    const { data } = await this.opts.client.get(
      batch.route.path,
      { symbols: symbols.join(',') },
      this.abort.signal,
    )
    const first = refs[0]
    if (!first) return []
    const bySymbol = new Map<string, Tracked[]>()
    for (const t of refs) bySymbol.set(t.symbol, [...(bySymbol.get(t.symbol) ?? []), t])
    const out: QuoteUpdate[] = []
    for (const u of parseTickerQuotes(data, first.market, this.clock.now()).updates) {
      // A lone symbol may come back under the service's own spelling (spec: multi-market quote).
      const owners = bySymbol.get(u.symbol) ?? (refs.length === 1 ? refs : [])
      for (const t of owners) out.push({ ...u, market: t.market, symbol: t.symbol })
    }
    return out
  }

  private async pollAgri(batch: Batch): Promise<QuoteUpdate[]> {
    const t = batch.keys[0] ? this.lookup(batch.keys[0]) : undefined
    if (!t) return []
    const query = { symbol: t.symbol, interval: '1', limit: '1' }
    const { data } = await this.opts.client.get(batch.route.path, query, this.abort.signal)
    const update = quoteFromLatestBar(data, t.market, t.symbol, this.clock.now())
    return update ? [update] : []
  }

  private accept(batch: Batch, updates: QuoteUpdate[]): void {
    const now = this.clock.now()
    const seen = new Set<SymbolKey>()
    for (const u of updates) seen.add(symbolKey(u.market, u.symbol))
    for (const key of batch.keys) {
      const t = this.lookup(key)
      if (!t) continue
      if (seen.has(key)) {
        t.lastPolledAt = now
        t.badUntil = 0
        this.setStatus(key, 'OK', '')
      } else {
        this.setStatus(key, 'NO_DATA', `The service returned no quote for ${t.symbol}`)
      }
    }
    const live = updates.filter((u) => this.lookup(symbolKey(u.market, u.symbol)))
    if (live.length > 0) this.opts.onUpdates(live)
  }

  private reject(batch: Batch, error: TickdeskError): void {
    const code = String(error.code)
    if (code === 'ABORTED') return
    if (SYMBOL_400.has(code)) return this.isolate(batch, code as SymbolStatusCode, error.message)
    if (MARKET_403.has(code)) return this.blockMarket(batch, code as SymbolStatusCode)
    this.opts.onError?.(error)
  }

  /** Bisection: both halves are queued first; a lone symbol that still fails is marked bad. */
  private isolate(batch: Batch, code: SymbolStatusCode, message: string): void {
    if (batch.keys.length > 1) {
      const mid = Math.ceil(batch.keys.length / 2)
      this.pending.unshift(
        { ...batch, keys: batch.keys.slice(0, mid) },
        { ...batch, keys: batch.keys.slice(mid) },
      )
      return
    }
    const key = batch.keys[0]
    const t = key ? this.lookup(key) : undefined
    if (!key || !t) return
    t.badUntil = this.clock.now() + this.badSymbolRetryMs
    this.setStatus(key, code, message)
  }

  private blockMarket(batch: Batch, code: SymbolStatusCode): void {
    const markets = new Map<Market, SymbolKey[]>()
    for (const key of batch.keys) {
      const t = this.lookup(key)
      if (t) markets.set(t.market, [...(markets.get(t.market) ?? []), key])
    }
    if (markets.size > 1) {
      this.pending.unshift(...[...markets.values()].map((keys) => ({ ...batch, keys })))
      return
    }
    const market = [...markets.keys()][0]
    if (!market) return
    const message = `${market} is not available on this plan or key (${code}); rechecking in ${Math.round(this.recheckMs / 60_000)} min`
    this.blocks.set(blockKey(batch.route, market), {
      until: this.clock.now() + this.recheckMs,
      code,
      message,
    })
    for (const t of this.tracked.values()) {
      if (t.market === market && pollRoute(t.market)?.route.family === batch.route.family) {
        this.setStatus(t.key, code, message)
      }
    }
  }

  private setStatus(key: SymbolKey, code: SymbolStatusCode, message: string): void {
    if (this.statuses.get(key) === code) return
    this.statuses.set(key, code)
    this.opts.onSymbolStatus({ key, code, message })
  }
}

function fresh(key: SymbolKey, market: Market, symbol: string): Tracked {
  return { key, market, symbol, lastAttemptAt: -Infinity, lastPolledAt: null, badUntil: 0 }
}

function blockKey(route: Route, market: Market): string {
  return `${route.family}|${market}`
}
