import type { Market, Plan } from '../../shared/markets/market'
import type { FeedStatus, StreamState } from '../../shared/status'
import { FORBIDDEN_RECHECK_MS, MARKET_403, type TickdeskError } from '../errors'
import type { GovernorSnapshot } from '../rest/rate-governor'

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

/** "FX: the stream does not answer for this market; polled every 5 s", one clause a market. */
export function unstreamedLine(
  unstreamed: NonNullable<FeedFacts['unstreamed']>,
  pollEveryMs: number,
): string {
  const every = `polled every ${Math.max(1, Math.round(pollEveryMs / 1000))} s`
  return unstreamed
    .map((u) => {
      const why =
        u.how === 'refused'
          ? `the stream refuses this market (${u.code}: ${u.message})`
          : 'the stream does not answer for this market'
      return `${MARKET_WORDS[u.market]}: ${why}; ${every}`
    })
    .join('. ')
}

const TRANSPORT_CODES = new Set([
  'NETWORK',
  'TIMEOUT',
  'UPSTREAM_UNAVAILABLE',
  'RATE_LIMIT_UNAVAILABLE',
  'BAD_RESPONSE',
])

/**
 * One account-wide state from the governor (REST budget and policy) and the stream. Order matters:
 * a stop (401, account 403) beats a quota pause, which beats a rate pause, which beats being offline.
 */
export function deriveFeedStatus(f: FeedFacts): FeedStatus {
  const status = feedStatusOf(f)
  // The failed call's trace id, for the trader to quote to the provider (spec: X-Request-Id).
  const id = f.lastError?.requestId
  if (id && status.code !== null && status.code === f.lastError?.code)
    return {
      ...status,
      message: `${status.message} (request id ${id} - quote it to your provider)`,
    }
  return status
}

function feedStatusOf(f: FeedFacts): FeedStatus {
  const base = {
    stream: { state: f.streamState, symbols: f.streamSymbols, cap: f.streamCap },
    budget: {
      usedLastMinute: f.governor.usedLastMinute,
      perMinute: f.governor.perMinute,
      callsToday: f.governor.callsToday,
    },
    plan: f.plan,
    demo: f.demo,
  }
  const g = f.governor
  const streamOpen = f.streamState === 'open'
  if (!f.started)
    return { ...base, state: 'stopped', code: null, message: 'Stopped', retryAt: null }
  if (g.state === 'stopped' || f.lastError?.code === 'UNAUTHORIZED') {
    const code = g.code ?? f.lastError?.code ?? 'UNAUTHORIZED'
    return {
      ...base,
      state: 'stopped',
      code,
      message: g.message || f.lastError?.message || code,
      retryAt: g.retryAt,
    }
  }
  if (g.state === 'quota') {
    return { ...base, state: 'paused', code: g.code, message: g.message, retryAt: g.retryAt }
  }
  if (g.state === 'paused') {
    return { ...base, state: 'paused', code: g.code, message: g.message, retryAt: g.retryAt }
  }
  const transportDown =
    g.state === 'backoff' || (f.lastError !== null && TRANSPORT_CODES.has(f.lastError.code))
  if (transportDown && !streamOpen) {
    const code = g.code ?? f.lastError?.code ?? 'NETWORK'
    const retryAt = minDefined(g.retryAt, f.streamRetryAt)
    return {
      ...base,
      state: 'offline',
      code,
      message: g.message || f.lastError?.message || 'Service unreachable',
      retryAt,
    }
  }
  if (streamOpen && g.state === 'backoff') {
    // The stream is fine but REST is backing off: polled rows will go stale, so say so.
    return {
      ...base,
      state: 'degraded',
      code: g.code,
      message: g.message || 'Polling paused',
      retryAt: g.retryAt,
    }
  }
  if (streamOpen && f.unstreamed !== undefined && f.unstreamed.length > 0) {
    // Live for the rest, but the trader must know these prices are polled, and why.
    return {
      ...base,
      state: 'degraded',
      code: 'STREAM_MARKET',
      message: unstreamedLine(f.unstreamed, f.pollEveryMs ?? 5_000),
      retryAt: null,
    }
  }
  if (streamOpen) {
    // Still Live, but the trader may want to know the stream speaks other words than ours.
    const learned = (f.learned ?? [])
      .map((l) => `${MARKET_WORDS[l.market]} as "${l.name}"`)
      .join(', ')
    const message = learned === '' ? 'Live' : `Live; stream market names learned: ${learned}`
    return { ...base, state: 'live', code: null, message, retryAt: null }
  }
  if (f.streamState === 'connecting' && f.lastError === null && g.callsToday === 0) {
    return { ...base, state: 'connecting', code: null, message: 'Connecting', retryAt: null }
  }
  const code = f.lastError?.code ?? null
  return {
    ...base,
    state: 'degraded',
    code,
    message:
      code === 'WS_CONN_LIMIT'
        ? 'Stream connection cap reached: polling'
        : code !== null && MARKET_403.has(code)
          ? `The stream is not available on this plan or key (${code}): polling; rechecking in ${Math.round(FORBIDDEN_RECHECK_MS / 60_000)} min`
          : 'Polling',
    retryAt: f.streamRetryAt,
  }
}

function minDefined(a: number | null, b: number | null): number | null {
  if (a === null) return b
  if (b === null) return a
  return Math.min(a, b)
}
