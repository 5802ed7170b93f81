import type { Market } from '../../shared/markets/market'
import type { ParsedFrame } from '../push/parsed-frame'
import type { PushKeys } from '../push/push-parser'
import { normaliseSymbol } from '../push/push-symbols'
import type { SubscriptionBook } from './subscription-book'

type TickFrame = Extract<ParsedFrame, { kind: 'tick' }>
type ItemFrame = Extract<ParsedFrame, { kind: 'item' }>

/** At most this many keys are learned to hold a symbol (a service uses one or two). */
const MAX_SYMBOL_KEYS = 3
/** Unmatched spellings kept to show (the doctor, the log): a few say enough. */
const MAX_UNMATCHED_SHOWN = 8

/** What the router could not place, for the stats and the doctor. */
export interface RouteCounters {
  /** Pushes for a symbol two wanted markets share that named neither: dropped. */
  ambiguous: number
  /** Pushes in another spelling of a wanted symbol, read as it. */
  respelled: number
  /** Pushes for a symbol no spelling of which is wanted (left ones aside). */
  unmatched: number
}

/**
 * Which wanted (market, symbol) a push is for, learning what the service writes differently: a
 * symbol under a key of its own (an item's string value that is a wanted symbol teaches the
 * key), in another spelling ("BTC-USDT" for BTCUSDT, subscription-book respell), or without a
 * market tag for a symbol two markets want (dropped and counted: shown in one row, it may be the
 * other's price; the planner then streams the symbol in one market only). A scanned tick's
 * handle caches the answer for the book's epoch: no look-up per tick while it holds.
 */
export class PushRouter {
  readonly counters: RouteCounters = { ambiguous: 0, respelled: 0, unmatched: 0 }
  /** The symbol keys learned so far, read by the parser (push-parser.ts PushKeys). */
  readonly keys: { symbolKeys: string[] } & PushKeys = { symbolKeys: [] }
  private readonly unmatchedShown = new Set<string>()
  /** Symbols told ambiguous in this book epoch (told once each). */
  private readonly toldAmbiguous = new Set<string>()
  private toldEpoch = -1

  constructor(
    private readonly book: SubscriptionBook,
    /** A symbol two markets want, pushed without a market: once per symbol and plan. */
    private readonly onAmbiguous: (symbol: string) => void,
  ) {}

  /** Symbols pushed that matched nothing wanted, as pushed (a few). */
  unmatchedSymbols(): string[] {
    return [...this.unmatchedShown]
  }

  /** The wanted symbol the last tick() or item() found (its own spelling, or ours for it). */
  symbol = ''

  /**
   * The tick's market (and `symbol` the wanted symbol), or null (the caller counts it as
   * unwanted); cached on a scanned tick's handle. Nothing is allocated on the way.
   */
  tick(f: TickFrame): Market | null {
    const ref = f.ref
    const book = this.book
    if (
      ref !== undefined &&
      ref.routeBook === book &&
      ref.routeEpoch === book.epoch &&
      ref.routeTag === f.market
    ) {
      this.symbol = ref.routedSymbol
      return ref.routed
    }
    // The epoch the answer is found in: telling of an ambiguous push replans the book at once
    // (the planner separates the symbol), and the answer found before that must not be kept as
    // the new epoch's (it would drop the symbol's pushes for good).
    const epoch = book.epoch
    const market = this.find(f.market, f.symbol, true)
    if (ref !== undefined) {
      ref.routeBook = book
      ref.routeEpoch = epoch
      ref.routeTag = f.market
      ref.routed = market
      ref.routedSymbol = market === null ? ref.symbol : this.symbol
    }
    return market
  }

  /**
   * An item whose symbol is under a key we do not know: a string value that is a wanted symbol
   * (in any spelling) names it, and its key is learned. Its market (and `symbol`), or null.
   */
  item(f: ItemFrame): Market | null {
    for (const key in f.raw) {
      const v = f.raw[key]
      if (typeof v !== 'string') continue
      const symbol = normaliseSymbol(v)
      if (symbol === null) continue
      const market = this.find(f.market, symbol, false)
      if (market === null) continue
      if (!this.keys.symbolKeys.includes(key) && this.keys.symbolKeys.length < MAX_SYMBOL_KEYS)
        this.keys.symbolKeys.push(key)
      return market
    }
    return null
  }

  private find(tagged: Market | null, symbol: string, count: boolean): Market | null {
    const book = this.book
    const market = book.route(tagged, symbol)
    if (market !== null) {
      this.symbol = symbol
      return market
    }
    if (book.ambiguous(tagged, symbol)) {
      if (count) this.ambiguousPush(symbol)
      return null
    }
    const respelled = book.respell(tagged, symbol)
    if (respelled !== null) {
      if (count) this.counters.respelled++
      this.symbol = respelled.symbol
      return respelled.market
    }
    if (count && book.leftAt(symbol) === null) {
      this.counters.unmatched++
      if (this.unmatchedShown.size < MAX_UNMATCHED_SHOWN) this.unmatchedShown.add(symbol)
    }
    return null
  }

  private ambiguousPush(symbol: string): void {
    this.counters.ambiguous++
    if (this.toldEpoch !== this.book.epoch) {
      this.toldEpoch = this.book.epoch
      this.toldAmbiguous.clear()
    }
    if (this.toldAmbiguous.has(symbol)) return
    this.toldAmbiguous.add(symbol)
    this.onAmbiguous(symbol)
  }
}
