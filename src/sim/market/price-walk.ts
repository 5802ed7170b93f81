import { seededRandom, type Random } from '../../util/random'
import { roundToTick, type Instrument } from './instruments'
import { AROUND_THE_CLOCK, type MarketHours } from './market-hours'
import { TradingDay } from './trading-day'

/**
 * Seeded per-symbol random walks. Each symbol has its own generator seeded from (seed, market,
 * symbol), and moves one step per REST quote or stream tick, never per wall-clock time: two
 * simulators with the same seed answer the same sequence of requests with the same prices.
 * When the trading day rolls (trading-day.ts), the next step starts a new day: the last price
 * becomes the previous close and the day's open, high and low, and the day's volume starts at 0.
 * Markets keep their hours (market-hours.ts): outside them a step leaves the price where it closed
 * (REST quotes and the stream's snapshot repeat it), a day rolls only once the market trades again,
 * and the first trade after a close opens with a gap from that close, as real opens do.
 */

/** TickerQuote with every field of the spec (Resources: TickerQuote). */
export interface TickerQuote {
  symbol: string
  last: number
  change: number
  changePercent: number
  open: number
  high: number
  low: number
  prevClose: number
  volume: number
  quoteVolume: number
  bid: number
  ask: number
  bidSize: number
  askSize: number
  /** Start of the current trading day, epoch ms (the spec's "window open"). */
  openTime: number
  /** Time of this snapshot, epoch ms. */
  closeTime: number
  trades: number
}

export interface SimBar {
  openTime: number
  closeTime: number
  open: number
  high: number
  low: number
  close: number
  volume: number
}

/** FNV-1a over the text: a stable 32-bit seed per (simulator seed, name). */
export function hashSeed(seed: number, name: string): number {
  let h = 0x811c9dc5 ^ (seed >>> 0)
  for (let i = 0; i < name.length; i++) {
    h ^= name.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}

const MINUTE_MS = 60_000
/** A day number no trading day has: the walk's figures are from before the days it has seen. */
const BEFORE_ANY_DAY = -1

/** The day's running figures, as the quote states them, and what the walk needs beside them. */
interface WalkState extends Pick<
  TickerQuote,
  | 'last'
  | 'open'
  | 'high'
  | 'low'
  | 'prevClose'
  | 'volume'
  | 'quoteVolume'
  | 'trades'
  | 'bid'
  | 'ask'
  | 'bidSize'
  | 'askSize'
> {
  rng: Random
  minute: SimBar | null
  /** The trading day these figures belong to; null until the walk is first read at a time. */
  day: number | null
  /** When the session of the last trade ends (market-hours.ts); null: it never does. */
  tradingUntil: number | null
  /** The market has been closed since the last trade: the next one opens with a gap. */
  gapDue: boolean
}

function round(n: number, digits: number): number {
  return Number(n.toFixed(digits))
}

export class PriceBook {
  private readonly walks = new Map<string, WalkState>()
  /** Prices a test holds still ("market:SYMBOL" -> last): the walk does not move them. */
  private readonly pinned = new Map<string, number>()

  constructor(
    private readonly seed: number,
    private readonly days: TradingDay = new TradingDay(),
    private readonly hours: MarketHours = AROUND_THE_CLOCK,
  ) {}

  /** Whether the instrument's market trades at `now` (the stream pushes only while it does). */
  trades(inst: Instrument, now: number): boolean {
    return this.hours(inst.market, inst.symbol, now).trading
  }

  /**
   * Holds a symbol at `last` (null lets it walk again from there), so a test can cross an alert
   * level at a known moment. The day's high and low follow, as they would on a real service.
   */
  pin(inst: Instrument, last: number | null): void {
    const key = `${inst.market}:${inst.symbol}`
    if (last === null) {
      this.pinned.delete(key)
      return
    }
    this.pinned.set(key, last)
    const s = this.state(inst)
    s.last = last
    s.high = Math.max(s.high, last)
    s.low = Math.min(s.low, last)
    this.quoteAround(inst, s)
  }

  /**
   * Moves the symbol one step and returns the new snapshot; outside its market's hours it does
   * not move (the snapshot of its last trade, at `now`).
   */
  step(inst: Instrument, now: number): TickerQuote {
    const window = this.hours(inst.market, inst.symbol, now)
    if (!window.trading) return this.closed(inst, now)
    const s = this.state(inst)
    if (s.tradingUntil !== null && now >= s.tradingUntil) s.gapDue = true
    s.tradingUntil = window.until
    const rolled = this.roll(s, now)
    const r = s.rng
    // Symmetric step plus a gentle pull back to the level, so long demos stay plausible.
    const move = s.gapDue
      ? this.gap(inst, s)
      : (r() * 2 - 1) * inst.stepVol * s.last + (inst.level - s.last) * 0.002
    const held = this.pinned.get(`${inst.market}:${inst.symbol}`)
    s.last = held ?? Math.max(inst.tick, roundToTick(s.last + move, inst.tick))
    // The open is the day's first trade: after a gap, that is the gapped price.
    const opening = s.gapDue
    if (rolled && opening) s.open = s.high = s.low = s.last
    s.gapDue = false
    s.high = Math.max(s.high, s.last)
    s.low = Math.min(s.low, s.last)
    const traded = inst.lot * (0.2 + r() * 3)
    s.volume = round(s.volume + traded, 4)
    s.quoteVolume = round(s.quoteVolume + traded * s.last, 2)
    s.trades += 1 + Math.floor(r() * 6)
    this.quoteAround(inst, s)
    this.updateMinute(s, traded, now, opening)
    return this.snapshot(inst, s, now)
  }

  /** The current snapshot without moving the walk. */
  peek(inst: Instrument, now: number): TickerQuote {
    if (!this.trades(inst, now)) return this.closed(inst, now)
    const s = this.state(inst)
    this.roll(s, now)
    return this.snapshot(inst, s, now)
  }

  /** The last trade's figures while the market is shut; its next trade opens with a gap. */
  private closed(inst: Instrument, now: number): TickerQuote {
    const s = this.state(inst)
    s.gapDue = true
    // First read while shut: its figures are the last session's, so its next trade starts a day.
    if (s.day === null) s.day = BEFORE_ANY_DAY
    return this.snapshot(inst, s, now)
  }

  /**
   * The open's move from the last close: 5 to 25 walk steps either way (for an A-share about
   * 0.2% to 1%), at least a tick, so an open is visibly a new price.
   */
  private gap(inst: Instrument, s: WalkState): number {
    const r = s.rng
    const size = s.last * inst.stepVol * (5 + r() * 20)
    const pull = inst.level >= s.last ? 1 : -1
    // Leaning a little towards the level, like the walk, so days of gaps do not drift away.
    const sign = r() < 0.45 ? -pull : pull
    return sign * Math.max(inst.tick, size)
  }

  /**
   * The live 1-minute bar the stream's candle pushes report; null before the first step, and from
   * a close until the next trade (the last bar belongs to the session before).
   */
  minuteBar(inst: Instrument): SimBar | null {
    const s = this.state(inst)
    return s.minute && !s.gapDue ? { ...s.minute } : null
  }

  /**
   * Rolls the walk over to a new day if one has begun since it last traded; true when it did.
   * Called only while the market trades: a closed market keeps yesterday's figures until it opens.
   */
  private roll(s: WalkState, now: number): boolean {
    const day = this.days.index(now)
    const rolled = s.day !== null && s.day !== day
    if (rolled) {
      s.prevClose = s.last
      s.open = s.last
      s.high = s.last
      s.low = s.last
      s.volume = 0
      s.quoteVolume = 0
      s.trades = 0
    }
    s.day = day
    return rolled
  }

  private state(inst: Instrument): WalkState {
    const key = `${inst.market}:${inst.symbol}`
    let s = this.walks.get(key)
    if (!s) {
      s = this.initial(inst)
      this.walks.set(key, s)
    }
    return s
  }

  private initial(inst: Instrument): WalkState {
    const rng = seededRandom(hashSeed(this.seed, `${inst.market}:${inst.symbol}`))
    const t = inst.tick
    // The day so far: a start near the level, yesterday's close and today's range around it
    // (a stablecoin's, startSpread, far narrower).
    const k = inst.startSpread === undefined ? 1 : inst.startSpread / 0.02
    const level = inst.level * (1 + (rng() - 0.5) * 0.02 * k)
    const prevClose = roundToTick(level * (1 + (rng() - 0.5) * 0.03 * k), t)
    const open = roundToTick(prevClose * (1 + (rng() - 0.5) * 0.004 * k), t)
    const last = roundToTick(level, t)
    const high = roundToTick(Math.max(open, last) * (1 + rng() * 0.008 * k), t)
    const low = roundToTick(Math.min(open, last) * (1 - rng() * 0.008 * k), t)
    const volume = round(inst.lot * (400 + rng() * 4000), 4)
    const s: WalkState = {
      rng,
      last,
      open,
      high: Math.max(high, last, open),
      low: Math.min(low, last, open),
      prevClose,
      volume,
      quoteVolume: round(volume * level, 2),
      trades: Math.floor(volume / inst.lot) * 3,
      bid: last,
      ask: last,
      bidSize: 0,
      askSize: 0,
      minute: null,
      day: null,
      tradingUntil: null,
      gapDue: false,
    }
    this.quoteAround(inst, s)
    return s
  }

  /** Best bid and ask one to three ticks either side of last: bid < last < ask always. */
  private quoteAround(inst: Instrument, s: WalkState): void {
    const r = s.rng
    const t = inst.tick
    s.bid = roundToTick(s.last - t * (1 + Math.floor(r() * 3)), t)
    s.ask = roundToTick(s.last + t * (1 + Math.floor(r() * 3)), t)
    s.bidSize = round(inst.lot * (0.5 + r() * 8), 4)
    s.askSize = round(inst.lot * (0.5 + r() * 8), 4)
  }

  /** `opening`: the first trade after a close, whose bar starts at the gap, not at the close. */
  private updateMinute(s: WalkState, traded: number, now: number, opening: boolean): void {
    const openTime = Math.floor(now / MINUTE_MS) * MINUTE_MS
    const bar = opening ? null : s.minute
    if (!bar || bar.openTime !== openTime) {
      s.minute = {
        openTime,
        closeTime: openTime + MINUTE_MS - 1,
        open: bar ? bar.close : s.last,
        high: Math.max(bar ? bar.close : s.last, s.last),
        low: Math.min(bar ? bar.close : s.last, s.last),
        close: s.last,
        volume: round(traded, 4),
      }
      return
    }
    bar.high = Math.max(bar.high, s.last)
    bar.low = Math.min(bar.low, s.last)
    bar.close = s.last
    bar.volume = round(bar.volume + traded, 4)
  }

  private snapshot(inst: Instrument, s: WalkState, now: number): TickerQuote {
    const change = roundToTick(s.last - s.prevClose, inst.tick)
    return {
      symbol: inst.symbol,
      last: s.last,
      change,
      changePercent: round((change / s.prevClose) * 100, 4),
      open: s.open,
      high: s.high,
      low: s.low,
      prevClose: s.prevClose,
      volume: s.volume,
      quoteVolume: s.quoteVolume,
      bid: s.bid,
      ask: s.ask,
      bidSize: s.bidSize,
      askSize: s.askSize,
      openTime: this.days.startOf(now),
      closeTime: now,
      trades: s.trades,
    }
  }
}
