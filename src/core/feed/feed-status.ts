import { PLAN_LIMITS, type Market, type Plan } from '../../shared/markets/market'
import type { FeedStatus, StreamState } from '../../shared/status'
import { FORBIDDEN_RECHECK_MS, MARKET_403, TRANSPORT_CODES, type TickdeskError } from '../errors'
import type { GovernorSnapshot } from '../rest/rate-governor'
import type { Distrust } from '../trust/trust-state'

export interface FeedFacts {
  started: boolean
  governor: GovernorSnapshot
  streamState: StreamState
  streamRetryAt: number | null
  streamSymbols: number
  streamCap: number
  lastError: TickdeskError | null
  watchedCount: number
  plan: Plan
  demo: boolean
  /** Markets the stream does not answer for under any name tried yet (stream-market-names.ts). */
  unstreamed?: ReadonlyArray<{
    market: Market
    how: 'refused' | 'silent' | 'no-answer'
    code: string
    message: string
  }>
  /** Markets whose stream prices are not trusted now, and why (core/trust). */
  distrusted?: ReadonlyArray<{ market: Market; why: Distrust }>
  /** Markets streaming under a word of the service's, learned (stream-market-names.ts). */
  learned?: ReadonlyArray<{ market: Market; name: string }>
  /** How often a polled symbol is asked at best (the poller's floor). */
  pollEveryMs?: number
}

/** Markets in the trader's words, for the status line. */
const MARKET_WORDS: Readonly<Record<Market, string>> = {
  crypto: 'Crypto',
  'usdt-futures': 'USDT-M perpetuals',
  futures: 'Futures',
  fx: 'FX',
  commodity: 'Commodities',
  cn: 'A-shares',
  hk: 'HK stocks',
  index: 'Indices',
  agri: 'Agriculture',
}

/** Why a market's stream is not used, in a trader's words. */
const DISTRUST_WORDS: Readonly<Record<Distrust, string>> = {
  disagree: "the stream's prices do not match the service's quotes",
  'no-price': "the stream's pushes carry no price we can read",
  frozen: "the stream's price stood still while the service's quotes moved",
}

/**
 * "FX: the stream does not answer for this market; polled every 5 s", one clause a market: the
 * markets whose stream no name reaches, then those whose stream's prices are not trusted.
 */
export function unstreamedLine(
  unstreamed: NonNullable<FeedFacts['unstreamed']>,
  pollEveryMs: number,
  distrusted: NonNullable<FeedFacts['distrusted']> = [],
): string {
  const every = `polled every ${Math.max(1, Math.round(pollEveryMs / 1000))} s`
  const named = unstreamed.map((u) => {
    const why =
      u.how === 'refused'
        ? `the stream refuses this market (${u.code}: ${u.message})`
        : 'the stream does not answer for this market'
    return `${MARKET_WORDS[u.market]}: ${why}; ${every}`
  })
  const checked = distrusted
    .filter((d) => !unstreamed.some((u) => u.market === d.market))
    .map((d) => `${MARKET_WORDS[d.market]}: ${DISTRUST_WORDS[d.why]}; ${every}`)
  return [...named, ...checked].join('. ')
}

type Base = Pick<FeedStatus, 'stream' | 'budget' | 'plan' | 'demo'>

/**
 * One account-wide state from the governor (REST budget and policy) and the stream. Order matters:
 * a stop (401, account 403) beats a quota pause, which beats a rate pause, which beats being
 * offline; then a stream that is open but not used for some markets, then Live.
 */
export function deriveFeedStatus(f: FeedFacts): FeedStatus {
  const status = feedStatusOf(f)
  // The failed call's trace id, for the trader to quote to the provider (spec: Errors,
  // X-Request-Id).
  const id = f.lastError?.requestId
  if (id && status.code !== null && status.code === f.lastError?.code)
    return {
      ...status,
      message: `${status.message} (request id ${id} - quote it to your provider)`,
    }
  return status
}

function feedStatusOf(f: FeedFacts): FeedStatus {
  const base: Base = {
    stream: { state: f.streamState, symbols: f.streamSymbols, cap: f.streamCap },
    budget: {
      usedLastMinute: f.governor.usedLastMinute,
      perMinute: f.governor.perMinute,
      callsToday: f.governor.callsToday,
    },
    plan: f.plan,
    demo: f.demo,
  }
  if (!f.started)
    return { ...base, state: 'stopped', code: null, message: 'Stopped', retryAt: null }
  return blocked(f, base) ?? unreachable(f, base) ?? streaming(f, base) ?? polling(f, base)
}

/** Stopped (401, account 403), a quota or a rate pause: the governor's word. */
function blocked(f: FeedFacts, base: Base): FeedStatus | null {
  const g = f.governor
  if (g.state === 'stopped' || f.lastError?.code === 'UNAUTHORIZED') {
    const code = g.code ?? f.lastError?.code ?? 'UNAUTHORIZED'
    const message = g.message || f.lastError?.message || code
    return { ...base, state: 'stopped', code, message, retryAt: g.retryAt }
  }
  if (g.state === 'quota' || g.state === 'paused')
    return { ...base, state: 'paused', code: g.code, message: g.message, retryAt: g.retryAt }
  return null
}

/** REST failing and no stream: offline. */
function unreachable(f: FeedFacts, base: Base): FeedStatus | null {
  const g = f.governor
  const transportDown =
    g.state === 'backoff' || (f.lastError !== null && TRANSPORT_CODES.has(String(f.lastError.code)))
  if (!transportDown || f.streamState === 'open') return null
  return {
    ...base,
    state: 'offline',
    code: g.code ?? f.lastError?.code ?? 'NETWORK',
    message: g.message || f.lastError?.message || 'Service unreachable',
    retryAt: minDefined(g.retryAt, f.streamRetryAt),
  }
}

/** The stream open: Live, or degraded while REST backs off or some markets poll. */
function streaming(f: FeedFacts, base: Base): FeedStatus | null {
  if (f.streamState !== 'open') return null
  const g = f.governor
  if (g.state === 'backoff') {
    // The stream is fine but REST is backing off: polled rows will go stale, so say so.
    const message = g.message || 'Polling paused'
    return { ...base, state: 'degraded', code: g.code, message, retryAt: g.retryAt }
  }
  const unstreamed = f.unstreamed ?? []
  const distrusted = f.distrusted ?? []
  if (unstreamed.length > 0 || distrusted.length > 0) {
    // Live for the rest, but the trader must know these prices are polled, and why.
    const message = unstreamedLine(unstreamed, f.pollEveryMs ?? 5_000, distrusted)
    const code = unstreamed.length > 0 ? 'STREAM_MARKET' : 'STREAM_PRICES'
    return { ...base, state: 'degraded', code, message: withRate(message, f), retryAt: null }
  }
  // Still Live, but the trader may want to know the stream speaks other words than ours.
  const learned = (f.learned ?? []).map((l) => `${MARKET_WORDS[l.market]} as "${l.name}"`)
  const message =
    learned.length === 0 ? 'Live' : `Live; stream market names learned: ${learned.join(', ')}`
  return { ...base, state: 'live', code: null, message: withRate(message, f), retryAt: null }
}

/** No stream: connecting at first, else polling (and why the stream is not there). */
function polling(f: FeedFacts, base: Base): FeedStatus {
  if (f.streamState === 'connecting' && f.lastError === null && f.governor.callsToday === 0)
    return { ...base, state: 'connecting', code: null, message: 'Connecting', retryAt: null }
  const code = f.lastError?.code ?? null
  const message =
    code === 'WS_CONN_LIMIT'
      ? 'Stream connection cap reached: polling'
      : code !== null && MARKET_403.has(code)
        ? `The stream is not available on this plan or key (${code}): polling; rechecking in ${Math.round(FORBIDDEN_RECHECK_MS / 60_000)} min`
        : 'Polling'
  return {
    ...base,
    state: 'degraded',
    code,
    message: withRate(message, f),
    retryAt: f.streamRetryAt,
  }
}

/** The key's own RPM, when its 429s showed it below the plan's (rate-governor.ts learnRate). */
function withRate(message: string, f: FeedFacts): string {
  const learned = f.governor.learnedRpm
  if (learned === undefined) return message
  return `${message}; this key allows about ${learned} requests a minute (learned from the service's 429s; the ${f.plan} plan says ${PLAN_LIMITS[f.plan].rpm})`
}

function minDefined(a: number | null, b: number | null): number | null {
  if (a === null) return b
  if (b === null) return a
  return Math.min(a, b)
}
