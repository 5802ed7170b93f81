import type { Market } from '../../shared/markets/market'
import { spellingKey } from '../push/push-symbols'

/**
 * One message the client sends (spec: WebSocket stream; `unsubscribe` is our assumption). `wire`
 * is the word the message names the market by on the service (stream-market-names.ts).
 */
export interface SubscriptionMessage {
  action: 'subscribe' | 'unsubscribe'
  market: Market
  wire: string
  symbols: string[]
}

/**
 * The interface does not cap a subscribe message's length; 100 keeps any one frame small while
 * the largest plan (Enterprise, 200 symbols) still needs only two per market.
 */
export const SUBSCRIBE_BATCH = 100

/** Where a push goes: the wanted symbol (its own spelling, or ours for it) and its market. */
export interface Route {
  market: Market
  symbol: string
}

/**
 * What the stream should carry (desired) versus what this socket has asked the server for
 * (server side), each server-side symbol under the market word it was asked under. `diff()`
 * turns the difference into batched messages per market and records them as sent, unsubscribes
 * first, so the plan's symbol cap is never exceeded mid-change (spec: Limits). A market that
 * goes by another word now keeps its old subscriptions on the server side until they are
 * unsubscribed under the old word: a subscription under a name on trial is a subscription the
 * service may count against the cap, whether it ever pushed or not. A new socket starts from
 * nothing (`resetServerSide`).
 */
export class SubscriptionBook {
  private desired = new Map<Market, Set<string>>()
  /** market -> wire word -> symbols asked under it on this socket. */
  private server = new Map<Market, Map<string, Set<string>>>()
  /** symbol → when this socket unsubscribed it (a service may ignore that: spec, not shown). */
  private left = new Map<string, number>()
  /** symbol → the markets that want it. */
  private marketsBySymbol = new Map<string, Market[]>()
  /** A spelling's key (push-symbols.ts spellingKey) → the wanted symbols that have it. */
  private bySpelling = new Map<string, Route[]>()
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
    this.marketsBySymbol = new Map()
    this.bySpelling = new Map()
    for (const [market, symbols] of byMarket) {
      if (symbols.size === 0) continue
      this.desired.set(market, new Set(symbols))
      for (const s of symbols) {
        const markets = this.marketsBySymbol.get(s)
        if (markets === undefined) this.marketsBySymbol.set(s, [market])
        else markets.push(market)
        const key = spellingKey(s)
        const routes = this.bySpelling.get(key)
        if (routes === undefined) this.bySpelling.set(key, [{ market, symbol: s }])
        else routes.push({ market, symbol: s })
      }
    }
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

  /**
   * The messages that make the server side the desired set, each market under `wire(market)`:
   * unsubscribes first (under the word each symbol was asked under), then subscribes.
   */
  diff(now: number, wire: (market: Market) => string): SubscriptionMessage[] {
    const unsubs: SubscriptionMessage[] = []
    const subs: SubscriptionMessage[] = []
    for (const [market, byWire] of this.server) {
      const want = this.desired.get(market)
      const current = wire(market)
      for (const [word, have] of byWire) {
        const gone = [...have].filter((s) => word !== current || want === undefined || !want.has(s))
        for (const s of gone) {
          have.delete(s)
          if (want === undefined || !want.has(s)) this.left.set(s, now)
        }
        if (have.size === 0) byWire.delete(word)
        batch('unsubscribe', market, word, gone, unsubs)
      }
      if (byWire.size === 0) this.server.delete(market)
    }
    for (const [market, want] of this.desired) {
      const word = wire(market)
      let byWire = this.server.get(market)
      if (byWire === undefined) this.server.set(market, (byWire = new Map()))
      let have = byWire.get(word)
      if (have === undefined) byWire.set(word, (have = new Set()))
      const added: string[] = []
      for (const s of want) {
        if (!have.has(s)) {
          have.add(s)
          added.push(s)
        }
        this.left.delete(s)
      }
      batch('subscribe', market, word, added, subs)
    }
    return unsubs.concat(subs)
  }

  /** How many symbols this socket has asked for and not left, under any word. */
  serverCount(): number {
    let n = 0
    for (const byWire of this.server.values()) for (const have of byWire.values()) n += have.size
    return n
  }

  /**
   * Which market a push belongs to: its own tag when we want that (market, symbol), else the one
   * market that wants the symbol (the service's market tags are "not shown"). Null for a symbol
   * we do not want under this spelling (left, never asked for, or another spelling: respell),
   * and for a symbol two markets want when the push does not say which: shown in one row, it
   * may be the other's price (ambiguous()).
   */
  route(tagged: Market | null, symbol: string): Market | null {
    if (tagged !== null) {
      if (tagged !== this.lastTagged) {
        this.lastTagged = tagged
        this.lastWanted = this.desired.get(tagged)
      }
      if (this.lastWanted?.has(symbol) === true) return tagged
    }
    const markets = this.marketsBySymbol.get(symbol)
    return markets !== undefined && markets.length === 1 ? (markets[0] as Market) : null
  }

  /** A push for a symbol two wanted markets share, which names neither. */
  ambiguous(tagged: Market | null, symbol: string): boolean {
    const markets = this.marketsBySymbol.get(symbol)
    return (
      markets !== undefined && markets.length > 1 && (tagged === null || !markets.includes(tagged))
    )
  }

  /**
   * A symbol pushed in another spelling ("BTC-USDT", "600519.SH"): the one wanted symbol with its
   * spelling key (in the tagged market when the push names one of ours), or null.
   */
  respell(tagged: Market | null, symbol: string): Route | null {
    const routes = this.bySpelling.get(spellingKey(symbol))
    if (routes === undefined) return null
    const fit = tagged === null ? routes : routes.filter((r) => r.market === tagged)
    return fit.length === 1 ? (fit[0] as Route) : null
  }

  /** What this socket asked the service for, by market (a frame naming no symbols is about these). */
  asked(): Map<Market, string[]> {
    const out = new Map<Market, string[]>()
    for (const [market, byWire] of this.server) {
      const symbols = new Set<string>()
      for (const have of byWire.values()) for (const s of have) symbols.add(s)
      out.set(market, [...symbols])
    }
    return out
  }

  /** Whether only one market wants the symbol (a push that names no market of ours is its). */
  inOneMarket(symbol: string): boolean {
    return this.marketsBySymbol.get(symbol)?.length === 1
  }

  marketOf(symbol: string): Market | null {
    return this.marketsBySymbol.get(symbol)?.[0] ?? null
  }
}

function batch(
  action: SubscriptionMessage['action'],
  market: Market,
  wire: string,
  symbols: string[],
  out: SubscriptionMessage[],
): void {
  for (let i = 0; i < symbols.length; i += SUBSCRIBE_BATCH) {
    out.push({ action, market, wire, symbols: symbols.slice(i, i + SUBSCRIBE_BATCH) })
  }
}
