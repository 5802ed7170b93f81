import { symbolKey, type Market, type SymbolKey } from '../../shared/markets/market'
import { Repeater, type Clock } from '../clock'
import {
  DEFAULT_READING,
  describeReading,
  learnedReading,
  type FieldReading,
  type ReadingKeys,
} from '../push/field-reading'
import type { Quote } from '../../shared/quote'
import type { QuoteFields, QuoteUpdate } from '../quotes/quote-fields'
import { comparePrices, PAIR_MS, type Comparison, type PriceBasis } from './price-check'
import { learnReading } from './reading-learner'
import { FIRST_SAMPLE_MS, sampleWaitMs } from './sample-pace'
import {
  gateOf,
  trustTransition,
  UNVERIFIED,
  type Distrust,
  type TrustEvent,
  type TrustState,
} from './trust-state'

/**
 * A market's stream is trusted only once its prices agree with REST, whatever shape its pushes
 * have (spec: Events, push shapes "not shown"). Per market, the lifecycle of trust-state.ts:
 * pushes of a market not trusted are held here, not shown; a REST answer for a pushed symbol
 * (the snapshot every symbol gets when it starts streaming, a sample, a poll of the probe
 * symbol) is held against the push of the same symbol nearest in time (price-check.ts). The
 * reading that failed is replaced by one learned from that very pair (reading-learner.ts), tried
 * on the probe symbol while the market polls, and trusted after it agrees twice; remembered per
 * service for the next start, as market names are. A trusted market is sampled now and then
 * (sample-pace.ts); a sample that disagrees, or a stream price that stood still while REST's
 * moved for FROZEN_MS, sends it back to polling at once.
 */

/** A stream price unchanged this long while REST quotes another is frozen. */
export const FROZEN_MS = 60_000
/** A market whose first check failed keeps its symbols subscribed this much longer (gate()). */
export const FIRST_CHECK_GRACE_MS = 2_000
/** A first use waits this long for a REST answer before asking for one. */
const VERIFY_ASK_MS = 2_000
/** Pushed symbols held per untrusted market: enough to pair any REST answer. */
const MAX_HELD = 64
const LOOK_EVERY_MS = 1_000

interface Held {
  at: number
  raw: Readonly<Record<string, unknown>>
}

interface MarketTrust {
  state: TrustState
  /** The reading pushes are shown under (trusted), or on trial at first use. */
  reading: FieldReading
  basis: PriceBasis
  source: 'default' | 'remembered' | 'learned'
  why: Distrust | null
  last: Comparison | null
  held: Map<string, Held>
  /** REST answers waiting for a push of the same symbol: symbol -> figures and when. */
  waiting: Map<string, { rest: QuoteFields; at: number }>
  nextSampleAt: number
  sampleTurn: number
  /** When the first push waited for a REST answer, and when one was last asked for. */
  heldSince: number | null
  /** A first check failed: the market's symbols stay subscribed until then (gate()). */
  graceUntil: number | null
  askedAt: number
  samples: number
}

/** The store's quote of a symbol before a REST answer, and when a push last moved its last. */
export interface ShownPrice {
  quote: Readonly<Quote>
  streamMovedAt: number
}

/** What the doctor and the status line read of one market. */
export interface TrustReport {
  market: Market
  state: TrustState['kind']
  reading: string
  source: MarketTrust['source']
  why: Distrust | null
  last: Comparison | null
  samples: number
}

export interface StreamTrustOptions {
  clock: Clock
  /** Readings that were trusted on this service before (the memory of names and readings). */
  remembered?: Partial<Record<Market, ReadingKeys>>
  /** A market's trust changed: its gate and the status line follow. */
  onChange(market: Market): void
  /** A reading earned trust: worth remembering. */
  onLearned?(market: Market, keys: ReadingKeys): void
  /** A trusted market's pushes may now be shown: the held ones, newest per symbol. */
  onTrusted?(market: Market, held: Array<{ symbol: string; fields: QuoteFields; at: number }>): void
  /** Ask REST for these symbols: riding a poll call (urgent false) or now. */
  sample(keys: SymbolKey[], urgent: boolean): void
  /** The symbols the plan streams in the market now (asked once a sample). */
  streamed(market: Market): string[]
  /** Whether the plan streams this symbol now (asked for every REST answer: a cheap look-up). */
  streams(market: Market, symbol: string): boolean
  /** How often a trusted market is sampled (sample-pace.ts), asked each time. */
  sampleEveryMs(): number
}

export class StreamTrust {
  private readonly markets = new Map<Market, MarketTrust>()
  private lastMarket: Market | null = null
  private lastTrust: MarketTrust | undefined = undefined
  private readonly looks: Repeater

  constructor(private readonly o: StreamTrustOptions) {
    this.looks = new Repeater(o.clock, LOOK_EVERY_MS, () => this.look())
  }

  /** The reading a market's pushes are read under now (hot: every tick). */
  readingOf(market: Market): FieldReading {
    const m = this.held(market)
    if (m === undefined) return DEFAULT_READING
    const s = m.state
    return s.kind === 'relearning' && s.candidate !== null ? s.candidate : m.reading
  }

  /** Whether a market's pushes are shown (hot: every tick). */
  shows(market: Market): boolean {
    return this.held(market)?.state.kind === 'trusted'
  }

  /** The market's trust: once made never replaced or dropped, so the last one found is kept. */
  private held(market: Market): MarketTrust | undefined {
    if (market === this.lastMarket) return this.lastTrust
    const m = this.markets.get(market)
    if (m !== undefined) {
      this.lastMarket = market
      this.lastTrust = m
    }
    return m
  }

  /**
   * What the planner may do with the market's symbols. A market whose first check failed keeps
   * them subscribed for FIRST_CHECK_GRACE_MS more (their pushes still held, the REST snapshot
   * shown): the other symbols' pushes, arriving a moment later, check the reading learned from
   * the first at once, instead of one probe symbol's polls a round apart.
   */
  gate(market: Market): 'open' | 'probe' | 'closed' {
    const m = this.markets.get(market)
    if (m === undefined) return 'open'
    if (m.graceUntil !== null && this.o.clock.now() < m.graceUntil) return 'open'
    return gateOf(m.state)
  }

  start(): void {
    this.looks.start()
  }

  stop(): void {
    this.looks.stop()
  }

  /** A push of a market not trusted: held (not shown), and paired with a waiting REST answer. */
  hold(u: QuoteUpdate): void {
    const m = this.entry(u.market)
    const raw = u.raw ?? u.fields
    if (m.held.size >= MAX_HELD && !m.held.has(u.symbol)) return
    const now = u.receivedAt ?? this.o.clock.now()
    const held = { at: now, raw: { ...raw } }
    m.held.set(u.symbol, held)
    const waiting = m.waiting.get(u.symbol)
    if (waiting !== undefined && now - waiting.at <= PAIR_MS) {
      m.waiting.delete(u.symbol)
      return this.pair(u.market, m, u.symbol, held, waiting.rest, now)
    }
    if (m.state.kind !== 'unverified') return
    // The snapshot every symbol gets as it starts streaming usually answers first; ask only when
    // none came.
    m.heldSince ??= now
    if (now - m.heldSince < VERIFY_ASK_MS || now - m.askedAt < VERIFY_ASK_MS) return
    m.askedAt = now
    this.o.sample([symbolKey(u.market, u.symbol)], true)
  }

  /**
   * A REST answer for a symbol of a streamed market. `shown`: the store's quote before it (the
   * stream's price when its source is the stream) and when a push last moved its last.
   */
  restAnswer(u: QuoteUpdate, shown: ShownPrice | undefined): void {
    // The snapshot of a symbol just subscribed often answers before its first push is held.
    const m =
      this.markets.get(u.market) ??
      (this.o.streams(u.market, u.symbol) ? this.entry(u.market) : undefined)
    if (m === undefined) return
    const now = u.receivedAt ?? this.o.clock.now()
    if (m.state.kind === 'trusted') return this.sampled(u, m, shown, now)
    if (m.state.kind === 'unreadable') return
    const held = m.held.get(u.symbol)
    if (held !== undefined && now - held.at <= PAIR_MS)
      return this.pair(u.market, m, u.symbol, held, u.fields, now)
    if (m.waiting.size < MAX_HELD || m.waiting.has(u.symbol))
      m.waiting.set(u.symbol, { rest: u.fields, at: now })
  }

  /** Markets whose stream is not used now, and why (the status line). */
  distrusted(): Array<{ market: Market; why: Distrust }> {
    const out: Array<{ market: Market; why: Distrust }> = []
    for (const [market, m] of this.markets) {
      const k = m.state.kind
      if ((k === 'relearning' || k === 'unreadable') && m.why !== null)
        out.push({ market, why: m.why })
    }
    return out
  }

  report(): TrustReport[] {
    return [...this.markets].map(([market, m]) => ({
      market,
      state: m.state.kind,
      reading: describeReading(this.readingOf(market)),
      source: m.source,
      why: m.why,
      last: m.last,
      samples: m.samples,
    }))
  }

  private entry(market: Market): MarketTrust {
    let m = this.markets.get(market)
    if (m === undefined) {
      const keys = this.o.remembered?.[market]
      m = {
        state: UNVERIFIED,
        reading: keys === undefined ? DEFAULT_READING : learnedReading(keys),
        basis: 'last',
        source: keys === undefined ? 'default' : 'remembered',
        why: null,
        last: null,
        held: new Map(),
        waiting: new Map(),
        nextSampleAt: 0,
        sampleTurn: 0,
        heldSince: null,
        graceUntil: null,
        askedAt: -Infinity,
        samples: 0,
      }
      this.markets.set(market, m)
    }
    return m
  }

  /** A push and a REST answer of one symbol, held against each other under the reading on trial. */
  private pair(
    market: Market,
    m: MarketTrust,
    symbol: string,
    held: Held,
    rest: QuoteFields,
    now: number,
  ): void {
    const s = m.state
    if (s.kind === 'relearning' && s.candidate === null) {
      const learned = learnReading(held.raw, rest, symbol)
      if (learned === null)
        return this.move(
          market,
          m,
          { type: 'distrust', learned: null, fromPair: true, now },
          'no-price',
        )
      m.basis = learned.basis
      return this.move(market, m, { type: 'learned', reading: learnedReading(learned.keys) })
    }
    const reading = this.readingOf(market)
    const c = comparePrices(symbol, reading.pick(held.raw) ?? {}, rest, now)
    if (c === null) return
    m.last = c
    if (c.verdict === 'agree') return this.move(market, m, { type: 'agree' })
    const learned = learnReading(held.raw, rest, symbol)
    if (learned !== null) m.basis = learned.basis
    const next = learned === null ? null : learnedReading(learned.keys)
    this.move(
      market,
      m,
      { type: 'distrust', learned: next, fromPair: true, now },
      c.verdict === 'no-price' ? 'no-price' : 'disagree',
    )
  }

  /** A REST answer for a trusted market's symbol: a sample of the stream's price. */
  private sampled(
    u: QuoteUpdate,
    m: MarketTrust,
    shown: ShownPrice | undefined,
    now: number,
  ): void {
    const q = shown?.quote
    if (shown === undefined || q === undefined || q.source !== 'stream') return
    if (now - q.receivedAt > PAIR_MS) return
    const c = comparePrices(u.symbol, figuresOf(q), u.fields, now)
    if (c === null) return
    m.last = c
    m.samples++
    const frozen =
      c.verdict === 'agree' &&
      u.fields.last !== undefined &&
      u.fields.last !== q.last &&
      shown.streamMovedAt > 0 &&
      now - shown.streamMovedAt >= FROZEN_MS
    if (c.verdict === 'agree' && !frozen) return
    this.move(
      u.market,
      m,
      { type: 'distrust', learned: null, fromPair: false, now },
      frozen ? 'frozen' : 'disagree',
    )
  }

  private move(market: Market, m: MarketTrust, e: TrustEvent, why?: Distrust): void {
    const before = m.state
    const candidate = before.kind === 'relearning' ? before.candidate : null
    m.state = trustTransition(before, e, m.reading)
    if (why !== undefined) m.why = why
    if (m.state === before) return
    m.graceUntil =
      before.kind === 'unverified' && m.state.kind === 'relearning'
        ? this.o.clock.now() + FIRST_CHECK_GRACE_MS
        : null
    if (m.state.kind === 'trusted') this.trusted(market, m, candidate)
    // REST answers waiting for pushes still pair under a new candidate (a snapshot's other
    // symbols check a reading learned from its first), not once the market polls unread.
    if (m.state.kind === 'unreadable') m.waiting.clear()
    m.heldSince = null
    this.o.onChange(market)
  }

  /** The market is trusted: its reading kept (and remembered when learned), its pushes shown. */
  private trusted(market: Market, m: MarketTrust, candidate: FieldReading | null): void {
    if (candidate !== null) {
      m.reading = candidate
      m.source = 'learned'
      this.o.onLearned?.(market, candidate.keys)
    }
    m.why = null
    m.nextSampleAt = this.o.clock.now() + FIRST_SAMPLE_MS
    const held = [...m.held].map(([symbol, h]) => ({
      symbol,
      fields: m.reading.pick(h.raw) ?? {},
      at: h.at,
    }))
    m.held.clear()
    this.o.onTrusted?.(market, held)
  }

  /** Every second: unreadable markets whose round is over relearn; due samples are asked. */
  private look(): void {
    const now = this.o.clock.now()
    for (const [market, m] of this.markets) {
      if (m.graceUntil !== null && now >= m.graceUntil) {
        m.graceUntil = null
        this.o.onChange(market)
      }
      const s = m.state
      if (s.kind === 'unreadable' && now >= s.until) this.move(market, m, { type: 'round' })
      if (s.kind !== 'trusted' || now < m.nextSampleAt) continue
      m.nextSampleAt = now + sampleWaitMs(this.o.sampleEveryMs(), m.sampleTurn)
      const symbols = this.o.streamed(market)
      if (symbols.length === 0) continue
      const symbol = symbols[m.sampleTurn++ % symbols.length] as string
      this.o.sample([symbolKey(market, symbol)], false)
    }
  }
}

/** A stored quote's prices as figures (null is absent). */
function figuresOf(q: Readonly<Quote>): QuoteFields {
  const f: QuoteFields = {}
  if (q.last !== null) f.last = q.last
  if (q.bid !== null) f.bid = q.bid
  if (q.ask !== null) f.ask = q.ask
  return f
}
