import type { Clock } from '../core/clock'
import { parseSymbolKey } from '../shared/markets/market'
import { sessionAt } from '../shared/markets/market-sessions'
import type { FiredAlert } from '../shared/alerts/alert'
import type { Quote, SymbolStatus } from '../shared/quote'
import type { FeedStatus } from '../shared/status'
import { fireJson, type FireJson } from '../shared/alerts/fire-json'
import { writeJson } from './output'

/**
 * The NDJSON objects of `watch --json`: a fixed set of keys a script can rely on, plus the
 * market's session at `now`: `session` (open, break, closed, pre, post) and
 * `sessionNext`, epoch ms of its next change (null: 24/7). Field values the service did not send
 * stay null, never 0. `priceIs` says which figure `last` is: 'last' (the service's last trade) or
 * 'mid' (the mid of bid and ask, for a symbol the service quotes with bid and ask only).
 */
export function quoteLine(q: Quote, now: number): Record<string, unknown> {
  const session = sessionAt(q.market, q.symbol, now)
  return {
    type: 'quote',
    market: q.market,
    symbol: q.symbol,
    last: q.last,
    priceIs: priceIs(q),
    change: q.change,
    changePercent: q.changePercent,
    bid: q.bid,
    ask: q.ask,
    volume: q.volume,
    ts: q.ts,
    source: q.source,
    stale: q.stale,
    session: session.state,
    sessionNext: session.nextChange,
  }
}

/** Which figure a quote's price is: the last trade, or the mid of bid and ask. */
export function priceIs(q: Pick<Quote, 'lastIsMid'>): 'last' | 'mid' {
  return q.lastIsMid === true ? 'mid' : 'last'
}

export function statusLine(s: FeedStatus): Record<string, unknown> {
  return { type: 'status', state: s.state, code: s.code, message: s.message, retryAt: s.retryAt }
}

export function symbolStatusLine(s: SymbolStatus): Record<string, unknown> {
  const ref = parseSymbolKey(s.key)
  return {
    type: 'symbol-status',
    market: ref?.market ?? null,
    symbol: ref?.symbol ?? s.key,
    code: s.code,
    message: s.message,
  }
}

/** A fired alert's line: the one public shape of a fire (src/shared/alerts/fire-json.ts). */
export function alertLine(a: FiredAlert): FireJson {
  return fireJson(a)
}

/**
 * Writes status and symbol-status lines only when they say something new: the engine re-derives
 * its status on every budget change, and a consumer wants transitions, not repeats.
 */
export class WatchJsonWriter {
  private lastStatus = ''
  private readonly symbolCodes = new Map<string, string>()

  constructor(
    private readonly out: NodeJS.WritableStream,
    private readonly clock: Clock,
  ) {}

  quote(q: Quote): void {
    writeJson(this.out, quoteLine(q, this.clock.now()))
  }

  status(s: FeedStatus): void {
    const line = statusLine(s)
    const text = JSON.stringify(line)
    if (text === this.lastStatus) return
    this.lastStatus = text
    writeJson(this.out, line)
  }

  /** Problems only (the contract: "for per-symbol problems"); a recovery shows as fresh quotes. */
  symbolStatus(s: SymbolStatus): void {
    const previous = this.symbolCodes.get(s.key)
    this.symbolCodes.set(s.key, s.code)
    if (s.code === 'OK' || previous === s.code) return
    writeJson(this.out, symbolStatusLine(s))
  }

  /** `written` runs once the line left the process (the pipe took it): the fire is then done. */
  alert(a: FiredAlert, written?: (error?: Error | null) => void): void {
    writeJson(this.out, alertLine(a), written)
  }
}
