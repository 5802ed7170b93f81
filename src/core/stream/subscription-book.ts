import type { Market } from '../../shared/markets/market'

/** One message the client sends (spec: WebSocket stream; `unsubscribe` is our assumption). */
export interface SubscriptionMessage {
  action: 'subscribe' | 'unsubscribe'
  market: Market
  symbols: string[]
}

/**
 * The interface does not cap a subscribe message's length; 100 keeps any one frame small while
 * the largest plan (Enterprise, 200 symbols) still needs only two per market.
 */
export const SUBSCRIBE_BATCH = 100

/**
 * What the stream should carry (desired) versus what this socket has asked the server for
 * (server side). `diff()` turns the difference into batched messages per market and records
 * them as sent; a new socket starts from nothing (`resetServerSide`).
 */
export class SubscriptionBook {
  private desired = new Map<Market, Set<string>>()
  private server = new Map<Market, Set<string>>()
  /** symbol → when this socket unsubscribed it (a service may ignore that: spec, not shown). */
  private left = new Map<string, number>()
  /** symbol → market for pushes that do not name their market; first market wins on a clash. */
  private marketBySymbol = new Map<string, Market>()
  /** route()'s last market and its wanted set: pushes come in runs of one market. */
  private lastTagged: Market | null = null
  private lastWanted: Set<string> | undefined = undefined

  /** Changes whenever route()'s answers may (setDesired): a SymbolRef's cached route is this epoch's. */
  epoch = 0

  setDesired(byMarket: Map<Market, Set<string>>): void {
    this.epoch++
    this.desired = new Map()
    this.lastTagged = null
    this.lastWanted = undefined
    this.marketBySymbol = new Map()
    for (const [market, symbols] of byMarket) {
      if (symbols.size === 0) continue
      this.desired.set(market, new Set(symbols))
      for (const s of symbols) if (!this.marketBySymbol.has(s)) this.marketBySymbol.set(s, market)
    }
  }

  /** The market goes by another name now: what was asked under the old one counts for nothing. */
  forgetMarket(market: Market): void {
    this.server.delete(market)
  }

  resetServerSide(): void {
    this.server = new Map()
    this.left = new Map()
  }

  /** The last time this socket asked to unsubscribe something (which the service may ignore). */
  lastLeftAt(): number | null {
    let last: number | null = null
    for (const at of this.left.values()) last = last === null ? at : Math.max(last, at)
    return last
  }

  /** When this socket unsubscribed the symbol (not wanted again since); null otherwise. */
  leftAt(symbol: string): number | null {
    return this.left.get(symbol) ?? null
  }

  /** Unsubscribes first, so a plan's symbol cap is never exceeded mid-change. */
  diff(now: number): SubscriptionMessage[] {
    const unsubs: SubscriptionMessage[] = []
    const subs: SubscriptionMessage[] = []
    for (const [market, have] of this.server) {
      const want = this.desired.get(market)
      const gone = [...have].filter((s) => want === undefined || !want.has(s))
      for (const s of gone) {
        have.delete(s)
        this.left.set(s, now)
      }
      if (have.size === 0) this.server.delete(market)
      batch('unsubscribe', market, gone, unsubs)
    }
    for (const [market, want] of this.desired) {
      let have = this.server.get(market)
      if (have === undefined) {
        have = new Set()
        this.server.set(market, have)
      }
      const added: string[] = []
      for (const s of want) {
        if (!have.has(s)) {
          have.add(s)
          added.push(s)
        }
        this.left.delete(s)
      }
      batch('subscribe', market, added, subs)
    }
    return unsubs.concat(subs)
  }

  /**
   * Which market a push belongs to: its own tag when we want that (market, symbol), else the
   * market we subscribed the symbol under (the service's market tags are "not shown"); null for
   * a symbol we do not want (left, or never asked for): its push is not ours to show.
   */
  route(tagged: Market | null, symbol: string): Market | null {
    if (tagged !== null) {
      if (tagged !== this.lastTagged) {
        this.lastTagged = tagged
        this.lastWanted = this.desired.get(tagged)
      }
      if (this.lastWanted?.has(symbol) === true) return tagged
    }
    return this.marketBySymbol.get(symbol) ?? null
  }

  /** What this socket asked the service for, by market (a frame naming no symbols is about these). */
  asked(): Map<Market, string[]> {
    return new Map([...this.server].map(([m, s]) => [m, [...s]]))
  }

  /** Whether only one market wants the symbol (a push that names no market of ours is its). */
  inOneMarket(symbol: string): boolean {
    let n = 0
    for (const want of this.desired.values()) if (want.has(symbol)) n++
    return n === 1
  }

  marketOf(symbol: string): Market | null {
    return this.marketBySymbol.get(symbol) ?? null
  }
}

function batch(
  action: SubscriptionMessage['action'],
  market: Market,
  symbols: string[],
  out: SubscriptionMessage[],
): void {
  for (let i = 0; i < symbols.length; i += SUBSCRIBE_BATCH) {
    out.push({ action, market, symbols: symbols.slice(i, i + SUBSCRIBE_BATCH) })
  }
}
