import { seededRandom, type Random } from '../../util/random'
import type { CandlePush, TickPush } from '../dialects'
import type { Instrument } from './instruments'
import { hashSeed, type PriceBook, type TickerQuote } from './price-walk'

/**
 * What the stream pushes for a symbol, built from the price walk. Pushed ticks are partial like
 * real feeds ("sometimes partial"): only symbol, market, last and ts are always present. Which
 * fields a tick drops is seeded too, so a seed replays the same stream.
 */
export class TickSource {
  private readonly partial: Random

  constructor(
    private readonly book: PriceBook,
    seed: number,
  ) {
    this.partial = seededRandom(hashSeed(seed, 'stream-partial-fields'))
  }

  /**
   * Steps the walk once and returns a possibly partial tick; null while the instrument's market
   * is shut (a closed market pushes nothing).
   */
  tick(inst: Instrument, now: number): TickPush | null {
    if (!this.book.trades(inst, now)) return null
    const q = this.book.step(inst, now)
    const r = this.partial
    const t: TickPush = {
      symbol: inst.symbol,
      market: inst.market,
      last: q.last,
      ts: now,
      quote: q,
    }
    if (r() < 0.8) {
      t.bid = q.bid
      t.ask = q.ask
    }
    if (r() < 0.6) t.volume = q.volume
    if (r() < 0.6) {
      t.change = q.change
      t.changePercent = q.changePercent
    }
    return t
  }

  /** A full tick without moving the walk: the first push after a subscribe. */
  snapshot(inst: Instrument, now: number): TickPush {
    return full(inst, this.book.peek(inst, now), now)
  }

  /** The live 1m bars of these instruments (those that have traded and trade now). */
  candles(insts: Iterable<Instrument>, now: number): CandlePush[] {
    const out: CandlePush[] = []
    for (const inst of insts) {
      const bar = this.book.trades(inst, now) ? this.book.minuteBar(inst) : null
      if (bar) out.push({ symbol: inst.symbol, market: inst.market, interval: '1m', bar })
    }
    return out
  }
}

function full(inst: Instrument, q: TickerQuote, now: number): TickPush {
  return {
    symbol: inst.symbol,
    market: inst.market,
    last: q.last,
    bid: q.bid,
    ask: q.ask,
    volume: q.volume,
    change: q.change,
    changePercent: q.changePercent,
    ts: now,
    quote: q,
  }
}
