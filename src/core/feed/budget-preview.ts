import {
  PLAN_LIMITS,
  parseSymbolKey,
  symbolKey,
  type Market,
  type Plan,
  type SymbolKey,
} from '../../shared/markets/market'
import { seededRandom } from '../../util/random'
import { FakeClock } from '../clock'
import { FeedPlanner } from './feed-planner'
import { BACKGROUND_POLL_MS, SLOW_POLL_MS } from '../poll/poll-queue'
import { RateGovernor } from '../rest/rate-governor'
import { WINDOW_MS } from '../rest/send-window'
import { isQuiet, QUIET_POLL_MS } from '../poll/session-pacing'
import { roundCalls, type StreamReason } from './stream-choice'

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
 *   - how fresh: pollMedianBoundMs, the median polled age those rules allow (bench/scale.ts
 *     prints it beside the measured one).
 */
export interface PollPacing {
  /** Fraction of the governed per-minute ceiling polling may use. */
  share: number
  /** No symbol is polled more often than this. */
  minIntervalMs: number
}

/** The QuotePoller's pacing when the engine does not set one. */
export const DEFAULT_POLL_PACING: Readonly<PollPacing> = { share: 1, minIntervalMs: 5_000 }

/** The QuotePoller's pause between two calls, spread evenly over the governor's window. */
export function pollSpacingMs(perMinute: number, share: number): number {
  return Math.ceil(WINDOW_MS / Math.max(1, Math.floor(perMinute * share)))
}

/**
 * Calls one polling round of these symbols takes (the QuotePoller's batching: one quote call per
 * endpoint family and 50 symbols; agriculture rides on the multi-market quote).
 */
export function callsPerRound(keys: Iterable<SymbolKey>): number {
  const refs: Array<{ market: Market }> = []
  for (const key of keys) {
    const ref = parseSymbolKey(key)
    if (ref !== null) refs.push(ref)
  }
  return roundCalls(refs)
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
  /** Calls of one round of the foreground polled symbols (not background). */
  callsPerRound: number
  /** How often each foreground polled symbol gets a fresh quote; null when none is polled. */
  pollEveryMs: number | null
  /** Requests a minute polling spends at that cadence. */
  requestsPerMinute: number
  perMinute: number
  /** Why each open symbol streams or is polled (stream-choice.ts). */
  reasons: Map<SymbolKey, StreamReason>
  /** Polled symbols only on lists out of view (PRIORITY.background), at the background pace. */
  backgroundPolled: number
  backgroundCallsPerRound: number
  backgroundPollEveryMs: number | null
  /**
   * The median age a polled quote can have at best: polls land every pollEveryMs, so ages run
   * evenly from 0 to pollEveryMs and half of them are under half of it. Null when nothing polls.
   */
  pollMedianBoundMs: number | null
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
  const reasons = plan.reasons
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
  const background = polled.filter((k) => plan.background.has(k))
  const cadence = pollCadence(
    callsPerRound(polled.filter((k) => !plan.background.has(k))),
    callsPerRound(background),
    pollSpacingMs(input.perMinute, input.pacing.share),
    input.pacing.minIntervalMs,
  )
  return {
    streamed,
    polled,
    quiet,
    slow,
    blocked,
    perMinute: input.perMinute,
    reasons,
    backgroundPolled: background.length,
    ...cadence,
    requestsPerMinute: Math.round(
      rate(cadence.callsPerRound, cadence.pollEveryMs) +
        rate(cadence.backgroundCallsPerRound, cadence.backgroundPollEveryMs) +
        quietPerMinute,
    ),
    pollMedianBoundMs: cadence.pollEveryMs === null ? null : Math.round(cadence.pollEveryMs / 2),
  }
}

const rate = (calls: number, everyMs: number | null): number =>
  everyMs === null ? 0 : (calls * 60_000) / everyMs

/**
 * How often polled symbols come round. The poller takes the most overdue symbol for its own pace
 * first (poll-queue.ts), so when the budget is short both paces stretch by the same factor and
 * background stays BACKGROUND_POLL_MS / minIntervalMs times slower:
 *   foreground every max(minInterval, spacing x (fgCalls + bgCalls / ratio)), background ratio x
 *   that; with no foreground, background every max(BACKGROUND_POLL_MS, spacing x bgCalls).
 * Foreground and background symbols of one family may share a call; counted apart, this errs slow.
 */
function pollCadence(
  fgCalls: number,
  bgCalls: number,
  spacing: number,
  minIntervalMs: number,
): Pick<
  BudgetPlan,
  | 'callsPerRound'
  | 'pollEveryMs'
  | 'backgroundCallsPerRound'
  | 'backgroundPollEveryMs'
  | 'requestsPerMinute'
> {
  const slowest = Math.max(minIntervalMs, BACKGROUND_POLL_MS)
  const ratio = slowest / minIntervalMs
  const every =
    fgCalls === 0 ? null : Math.max(minIntervalMs, spacing * (fgCalls + bgCalls / ratio))
  const bgEvery =
    bgCalls === 0 ? null : every === null ? Math.max(slowest, spacing * bgCalls) : every * ratio
  const perMinute = (calls: number, ms: number | null): number =>
    ms === null ? 0 : (calls * 60_000) / ms
  return {
    callsPerRound: fgCalls,
    pollEveryMs: every === null ? null : Math.round(every),
    backgroundCallsPerRound: bgCalls,
    backgroundPollEveryMs: bgEvery === null ? null : Math.round(bgEvery),
    requestsPerMinute: Math.round(perMinute(fgCalls, every) + perMinute(bgCalls, bgEvery)),
  }
}

/**
 * The plan's budget for these symbols under the engine's default rules: the plan's stream cap and
 * RPM (spec: Limits) governed as the engine governs it (RateGovernor: 90 %, its own window), the
 * QuotePoller's default pacing, every market open. bench/scale.ts prints its pollMedianBoundMs
 * beside the polled median it measures.
 */
export function planBudgetOnPlan(
  plan: Plan,
  watched: ReadonlyArray<{ key: SymbolKey; priority: number }>,
): BudgetPlan {
  const limits = PLAN_LIMITS[plan]
  const governor = new RateGovernor({
    rpm: limits.rpm,
    clock: new FakeClock(0),
    random: seededRandom(1),
  })
  return planBudget({
    watched,
    streamCap: limits.wsSymbols,
    perMinute: governor.snapshot().perMinute,
    pacing: DEFAULT_POLL_PACING,
    blockedMarkets: new Set(),
  })
}
