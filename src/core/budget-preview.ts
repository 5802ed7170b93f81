import { parseSymbolKey, symbolKey, type Market, type SymbolKey } from '../shared/market'
import { FakeClock } from './clock'
import { FeedPlanner } from './feed-planner'
import { MAX_SYMBOLS_PER_CALL, quoteRoute } from './market-routes'
import { WINDOW_MS } from './rate-governor'
import { SLOW_POLL_MS } from './poll-queue'
import { isQuiet, QUIET_POLL_MS } from './session-pacing'

/**
 * What a set of watched symbols costs on a plan, computed with the engine's own rules so the
 * preview cannot drift from what the engine then does:
 *   - who streams: a real FeedPlanner (the plan's WebSocket symbol cap, by priority, agriculture
 *     never; spec: Limits, WebSocket caps) with the stream assumed open;
 *   - markets the key was refused (403 MARKET_NOT_ENABLED or API_KEY_SCOPE_DENIED) neither
 *     stream nor poll: their slots go silent and are demoted, then the poller skips them;
 *   - who is polled: the rest;
 *   - how often: one polling round is one call per endpoint family and 50 symbols (spec: Limits,
 *     1 to 50 symbols; agriculture rides on the multi-market quote), sent one per
 *     pollSpacingMs (the QuotePoller's pacing: its share of the governed ceiling, rpm x 90 %),
 *     and no symbol sooner than the poller's minimum interval;
 *   - with `now`, polled symbols whose market is closed or at its break then (market sessions)
 *     are `quiet`: asked once per QUIET_POLL_MS, so the round and its cadence count only the
 *     markets that trade; `slow` helpers (FX conversion pairs) likewise once a minute.
 */
export interface PollPacing {
  /** Fraction of the governed per-minute ceiling polling may use. */
  share: number
  /** No symbol is polled more often than this. */
  minIntervalMs: number
}

/** The QuotePoller's pause between two calls, spread evenly over the governor's window. */
export function pollSpacingMs(perMinute: number, share: number): number {
  return Math.ceil(WINDOW_MS / Math.max(1, Math.floor(perMinute * share)))
}

/**
 * Calls one polling round of these symbols takes (the QuotePoller's batching: one quote call per
 * endpoint family and 50 symbols; agriculture rides on the multi-market quote).
 */
export function callsPerRound(keys: Iterable<SymbolKey>): number {
  const families = new Map<string, number>()
  for (const key of keys) {
    const ref = parseSymbolKey(key)
    if (ref === null) continue
    const family = quoteRoute(ref.market).family
    families.set(family, (families.get(family) ?? 0) + 1)
  }
  let calls = 0
  for (const n of families.values()) calls += Math.ceil(n / MAX_SYMBOLS_PER_CALL)
  return calls
}

export interface BudgetInput {
  /** Everything the app would watch, in watch order, with stream priorities (PRIORITY). */
  watched: ReadonlyArray<{ key: SymbolKey; priority: number }>
  streamCap: number
  /** The governed ceiling (RateGovernor snapshot perMinute: rpm x utilisation). */
  perMinute: number
  pacing: PollPacing
  /** Markets the service refused for this key. */
  blockedMarkets: ReadonlySet<Market>
  /** The moment the plan is for (market sessions); without it every market counts as open. */
  now?: number
  /** Watched helpers (FX conversion pairs) the poller asks once a minute (SLOW_POLL_MS). */
  slow?: ReadonlySet<SymbolKey>
}

export interface BudgetPlan {
  streamed: SymbolKey[]
  polled: SymbolKey[]
  /** Polled, but their market is closed now: asked every QUIET_POLL_MS, not each round. */
  quiet: SymbolKey[]
  /** Polled helpers (FX conversion pairs): asked every SLOW_POLL_MS, not each round. */
  slow: SymbolKey[]
  /** Watched but in a refused market: neither streamed nor polled. */
  blocked: SymbolKey[]
  callsPerRound: number
  /** How often each polled symbol gets a fresh quote; null when nothing is polled. */
  pollEveryMs: number | null
  /** Requests a minute polling spends at that cadence. */
  requestsPerMinute: number
  perMinute: number
}

export function planBudget(input: BudgetInput): BudgetPlan {
  // A refused market gets no prices: its stream slots go silent and are demoted, then the poller
  // skips it, so in the steady state it takes neither a slot nor a call.
  const blocked: SymbolKey[] = []
  const open: Array<{ key: SymbolKey; priority: number }> = []
  for (const w of input.watched) {
    const market = parseSymbolKey(w.key)?.market
    if (market !== undefined && input.blockedMarkets.has(market)) blocked.push(w.key)
    else open.push(w)
  }
  // A throwaway planner on a clock that never moves: its demotion timers never fire.
  const planner = new FeedPlanner({ cap: input.streamCap, clock: new FakeClock(0) })
  planner.setStreamAvailable(true)
  planner.setWatched(open)
  const plan = planner.plan()
  planner.dispose()
  const streamed: SymbolKey[] = []
  for (const [market, symbols] of plan.streamed)
    for (const s of symbols) streamed.push(symbolKey(market, s))
  const polled: SymbolKey[] = []
  const quiet: SymbolKey[] = []
  const slow: SymbolKey[] = []
  for (const key of plan.polled) {
    const ref = parseSymbolKey(key)
    const closed = ref && input.now !== undefined && isQuiet(ref.market, ref.symbol, input.now)
    if (closed) quiet.push(key)
    else if (input.slow?.has(key)) slow.push(key)
    else polled.push(key)
  }
  const quietPerMinute =
    (callsPerRound(quiet) * 60_000) / QUIET_POLL_MS + (callsPerRound(slow) * 60_000) / SLOW_POLL_MS
  const calls = callsPerRound(polled)
  if (calls === 0) {
    return {
      streamed,
      polled,
      quiet,
      slow,
      blocked,
      callsPerRound: 0,
      pollEveryMs: null,
      requestsPerMinute: Math.round(quietPerMinute),
      perMinute: input.perMinute,
    }
  }
  const round = calls * pollSpacingMs(input.perMinute, input.pacing.share)
  const every = Math.max(input.pacing.minIntervalMs, round)
  return {
    streamed,
    polled,
    quiet,
    slow,
    blocked,
    callsPerRound: calls,
    pollEveryMs: every,
    requestsPerMinute: Math.round((calls * 60_000) / every + quietPerMinute),
    perMinute: input.perMinute,
  }
}
