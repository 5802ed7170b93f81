import type { Dialect } from './dialects'
import type { SimMarket } from './market/instruments'
import type { MarketNaming } from './market-names'

/** The push readings a behaviour may switch on (dialects.ts says what each is). */
export type PushReading = Partial<
  Pick<
    Dialect,
    | 'layout'
    | 'pushMarkets'
    | 'groupedNumbers'
    | 'localTimes'
    | 'spelling'
    | 'envelope'
    | 'candleArrays'
  >
>

/**
 * Where the interface is silent, real services differ. Each switch plays one reading of the spec,
 * so the client is tested against every reading instead of sharing one guess with the simulator.
 * Defaults keep the simulator's historical behaviour.
 */
export interface ServiceBehaviour {
  /**
   * spec: Events, "Client messages other than subscribe (for example unsubscribe): not shown".
   * true: unsubscribe is acknowledged but nothing is removed; pushes for those symbols go on.
   */
  ignoresUnsubscribe: boolean
  /**
   * spec: Limits lists a per-key symbol cap but Errors names only WS_CONN_LIMIT. 'listed': the
   * error frame names the refused symbols; 'unlisted': code and message only.
   */
  symbolCapError: 'listed' | 'unlisted'
  /**
   * spec: Errors, "code (optional)". true: REST 403s for a market outside the key's scope come
   * as an envelope without a code (stream subscribe errors keep theirs).
   */
  forbiddenWithoutCode: boolean
  /**
   * spec: Listed endpoints without detail, the multi-market quote covers commodities (agriculture
   * is one, per What the service does). true: it quotes agri symbols; false: it rejects them
   * (UNKNOWN_SYMBOL).
   */
  agriOnMultiQuote: boolean
  /**
   * spec: TickerQuote, "openTime, closeTime: window open and close time". 'snapshot': closeTime is
   * the time of the snapshot; 'end-of-day': the window's close at the end of the UTC day.
   */
  quoteCloseTime: 'snapshot' | 'end-of-day'
  /**
   * spec: Errors, "On 429 the client must honor the Retry-After header". false: a daily quota
   * 429 comes without Retry-After (the reset time is "not shown").
   */
  quotaRetryAfter: boolean
  /**
   * spec: Response envelope, msg is "optional; human-readable". true: a 400 UNKNOWN_SYMBOL or
   * INVALID_SYMBOL names the refused symbols in msg; false: msg says only what went wrong.
   */
  refusalNamesSymbols: boolean
  /**
   * spec: Listed endpoints without detail, the multi-market quote's parameters are "not shown" (the
   * futures quote takes `symbols`, alias `symbol`). 'symbols': either name; 'symbol': only
   * `symbol`.
   */
  multiQuoteParam: 'symbols' | 'symbol'
  /**
   * spec: WebSocket stream, field market "e.g. the crypto market"; Resources, "Values of the
   * market tag: not shown". 'client': markets in the client's words; 'service': in the service's
   * own (market-names.ts) on the stream (subscribe, acks, pushes) and in REST payloads' `market`.
   */
  marketNames: MarketNaming
  /**
   * What a subscribe naming a market the service does not know gets (not shown either).
   * 'refuse': {"event":"error","code":"INVALID_REQUEST","msg":"unknown market <name>"}, naming
   * no symbols; 'silent': an ack like any other, then nothing, ever.
   */
  unknownMarket: 'refuse' | 'silent'
  /** The service's own words for some markets under 'service' naming (market-names.ts). */
  marketWords?: Partial<Record<SimMarket, string>>
  /**
   * spec: Events, "Heartbeat interval and reconnect rules: not shown". 'none': WebSocket pings
   * suffice; 'client-ping': a socket that sent no message of its own for KEEPALIVE_SILENCE_MS is
   * closed ("no ping from the client"); 'action-pong': the service's app-level pings must be
   * answered with {"action":"pong"} (its client messages' key), else the socket is closed.
   */
  keepAlive: 'none' | 'client-ping' | 'action-pong'
  /**
   * spec: Authentication 5, "Invalid keys and over-limit keys are rejected with 401 or 429".
   * 401: a daily quota or RPM refusal comes as a 401 carrying the 429 code.
   */
  overLimitStatus: 429 | 401
  /**
   * spec: Errors, "honor the Retry-After header" (its form is HTTP's): 'seconds' (delta-seconds),
   * 'http-date' (an IMF-fixdate), 'epoch' (a Unix time in seconds, as some services send).
   */
  retryAfter: 'seconds' | 'http-date' | 'epoch'
  /** A quote request none of whose symbols has a quote answers `data: null` (else `[]`). */
  noQuoteAsNull: boolean
  /** Markets the service quotes with bid and ask only, no last (REST and stream). */
  bidAskOnly: readonly SimMarket[]
  /** How pushes are written (push-layouts.ts, wire-format.ts); merged into the dialect. */
  push?: PushReading
}

export const DEFAULT_BEHAVIOUR: Readonly<ServiceBehaviour> = {
  ignoresUnsubscribe: false,
  symbolCapError: 'listed',
  forbiddenWithoutCode: false,
  agriOnMultiQuote: true,
  quoteCloseTime: 'snapshot',
  quotaRetryAfter: true,
  refusalNamesSymbols: true,
  multiQuoteParam: 'symbols',
  marketNames: 'client',
  unknownMarket: 'refuse',
  keepAlive: 'none',
  overLimitStatus: 429,
  retryAfter: 'seconds',
  noQuoteAsNull: false,
  bidAskOnly: [],
}

/** The switches by name, for `tickdesk sim --behave a,b`: each turns one reading on. */
export const BEHAVIOUR_NAMES: Readonly<Record<string, Partial<ServiceBehaviour>>> = {
  'ignores-unsubscribe': { ignoresUnsubscribe: true },
  'unlisted-symbol-cap': { symbolCapError: 'unlisted' },
  'forbidden-without-code': { forbiddenWithoutCode: true },
  'no-agri-on-multi-quote': { agriOnMultiQuote: false },
  'end-of-day-close-time': { quoteCloseTime: 'end-of-day' },
  'quota-without-retry-after': { quotaRetryAfter: false },
  'generic-refusals': { refusalNamesSymbols: false },
  'multi-quote-symbol-param': { multiQuoteParam: 'symbol' },
  'service-market-names': { marketNames: 'service' },
  'silent-unknown-market': { unknownMarket: 'silent' },
  'perps-own-name': { marketNames: 'service', marketWords: { 'usdt-futures': 'linear_swap' } },
  'client-keepalive': { keepAlive: 'client-ping' },
  'action-pong': { keepAlive: 'action-pong' },
  'over-limit-401': { overLimitStatus: 401 },
  'retry-after-date': { retryAfter: 'http-date' },
  'retry-after-epoch': { retryAfter: 'epoch' },
  'null-for-no-quote': { noQuoteAsNull: true },
  'fx-bid-ask-only': { bidAskOnly: ['fx'] },
  'ticker24h-pushes': { push: { layout: 'ticker24h', pushMarkets: 'none' } },
  'bid-ask-pushes': { push: { layout: 'bid-ask' } },
  'own-a-pushes': { push: { layout: 'own-a' } },
  'own-b-pushes': { push: { layout: 'own-b', pushMarkets: 'none' } },
  'untagged-pushes': { push: { pushMarkets: 'none' } },
  'grouped-numbers': { push: { groupedNumbers: true } },
  'local-times': { push: { localTimes: true } },
  'dashed-symbols': { push: { spelling: 'dashed' } },
  'venue-symbols': { push: { spelling: 'venue' } },
  'envelope-pushes': { push: { envelope: true } },
  'candle-arrays': { push: { candleArrays: true } },
}

/** Names to switches; the unknown names are returned so the caller can say which. */
export function behaviourFromNames(names: string[]): {
  behaviour: Partial<ServiceBehaviour>
  unknown: string[]
} {
  let behaviour: Partial<ServiceBehaviour> = {}
  const unknown: string[] = []
  for (const name of names) {
    const one = BEHAVIOUR_NAMES[name]
    if (one && Object.hasOwn(BEHAVIOUR_NAMES, name))
      behaviour = { ...behaviour, ...one, push: { ...behaviour.push, ...one.push } }
    else unknown.push(name)
  }
  return { behaviour, unknown }
}

export function resolveBehaviour(b: Partial<ServiceBehaviour> | undefined): ServiceBehaviour {
  return { ...DEFAULT_BEHAVIOUR, ...b }
}

const DAY_MS = 86_400_000

/** A Retry-After of `seconds` from `now`, in the form this behaviour sends. */
export function retryAfterValue(
  b: ServiceBehaviour,
  seconds: number,
  now: number,
): string | number {
  if (b.retryAfter === 'epoch') return Math.ceil(now / 1000) + seconds
  if (b.retryAfter === 'http-date')
    return new Date(Math.ceil(now / 1000) * 1000 + seconds * 1000).toUTCString()
  return seconds
}

/** The closeTime a quote carries under this behaviour. */
export function quoteCloseTime(b: ServiceBehaviour, now: number): number {
  return b.quoteCloseTime === 'end-of-day' ? Math.floor(now / DAY_MS) * DAY_MS + DAY_MS - 1 : now
}
