import type { Market, SymbolKey } from '../../shared/markets/market'
import type { SymbolStatusCode } from '../../shared/quote'
import type { EndpointFamily } from '../rest/market-routes'

export interface Verdict {
  code: SymbolStatusCode
  message: string
  until: number
}

/**
 * What the service has told the poller about symbols and markets, kept apart from the poll set:
 * a symbol that moves to the stream and back, or is polled once for a snapshot, is not asked
 * again before its verdict expires (the first request as careful as the hundredth). Only
 * forget() (the trader stopped watching it) clears a symbol's verdicts early.
 *
 *   bad:     a lone symbol refused (400 UNKNOWN_SYMBOL / INVALID_SYMBOL / INVALID_REQUEST)
 *   blocked: an endpoint family refusing a market (403), per family and market
 *   kline:   agri symbols the multi-market quote refused, polled from their latest 1m bar
 *   proven:  symbols the service has answered for (not suspects when a batch is refused)
 */
export class PollVerdicts {
  private readonly bad = new Map<SymbolKey, Verdict>()
  private readonly blocks = new Map<string, Verdict>()
  private readonly kline = new Set<SymbolKey>()
  private readonly proven = new Set<SymbolKey>()
  /** Until when the multi-market quote refuses agriculture as a whole (a 403 on agri). */
  private agriRefusedUntil = 0

  badVerdict(key: SymbolKey, now: number): Verdict | null {
    const v = this.bad.get(key)
    return v !== undefined && v.until > now ? v : null
  }

  markBad(key: SymbolKey, verdict: Verdict): void {
    this.bad.set(key, verdict)
  }

  blockOf(family: EndpointFamily, market: Market, now: number): Verdict | null {
    // Asked for every polled symbol before every call: no key string built while nothing is blocked.
    if (this.blocks.size === 0) return null
    const v = this.blocks.get(`${family}|${market}`)
    return v !== undefined && v.until > now ? v : null
  }

  block(family: EndpointFamily, market: Market, verdict: Verdict): void {
    this.blocks.set(`${family}|${market}`, verdict)
  }

  /** Whether this agri symbol's price comes from its kline (the quote refused it or all agri). */
  viaKline(key: SymbolKey, now: number): boolean {
    return this.kline.has(key) || this.agriRefusedUntil > now
  }

  useKline(key: SymbolKey): void {
    this.kline.add(key)
  }

  refuseAgriQuotes(until: number): void {
    this.agriRefusedUntil = until
  }

  isProven(key: SymbolKey): boolean {
    return this.proven.has(key)
  }

  answered(key: SymbolKey): void {
    this.proven.add(key)
    this.bad.delete(key)
  }

  forget(key: SymbolKey): void {
    this.bad.delete(key)
    this.kline.delete(key)
    this.proven.delete(key)
  }
}
