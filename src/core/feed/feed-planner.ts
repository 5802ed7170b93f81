import type { Market, SymbolKey } from '../../shared/markets/market'
import { MARKETS, parseSymbolKey, symbolKey } from '../../shared/markets/market'
import type { Clock, TimerHandle } from '../clock'
import { chooseStreams, type ChoiceCandidate, type StreamReason } from './stream-choice'
import { probeSymbols, yieldingInstances, type PlanEntry } from './shared-symbols'
import type { MarketGate } from '../stream/stream-market-names'

/**
 * FeedPlanner decides which watched symbols ride the stream and which are polled over REST.
 *
 * The plan's WebSocket symbol cap (spec: Limits, "WebSocket caps") is the scarce resource, so
 * slots go by priority (visible 3 > alerted 2 > pinned 1 > other 0); within the class where they
 * run out, to the symbols whose streaming takes the most polled calls out of a round, whatever
 * the watch order, and a streamed symbol keeps its slot unless a call is saved by moving it
 * (stream-choice.ts).
 * A streamed symbol that gets no push within `silentAfterMs` of getting its slot is demoted to
 * polling for DEMOTION_MEMORY_MS and its slot goes to the next candidate: the service may
 * accept a subscription and never push (spec: Events, push shapes "not shown"), and a silent
 * slot is worse than a polled one.
 *
 * Per symbol: polled ─(slot free, stream available)─▶ streamed-waiting ─(noteTick)─▶ streamed-live
 *             streamed-waiting ─(silentAfterMs, no push)─▶ demoted ─(10 min)─▶ polled
 * The stream being unavailable (WS_CONN_LIMIT, offline, 401, not yet open) polls everything and
 * stops the demotion clocks, so an outage never demotes anyone. Availability starts false: call
 * setStreamAvailable(true) when the stream opens.
 */
/**
 * background: only on lists out of view (the app knows what is on screen); streams last and is
 * polled at the background pace (poll-queue.ts BACKGROUND_POLL_MS).
 */
export const PRIORITY = { visible: 3, alerted: 2, pinned: 1, other: 0, background: -1 } as const
export const DEFAULT_SILENT_AFTER_MS = 20_000
export const DEMOTION_MEMORY_MS = 10 * 60_000
/** After the service refused unnamed symbols over its cap, slots silent this long are those. */
export const CAP_SILENT_MS = 5_000
/** Agricultural data is candles over REST only (spec: Endpoints, agri/kline); never streamed. */
export const STREAMABLE_MARKETS: ReadonlySet<Market> = new Set(MARKETS.filter((m) => m !== 'agri'))

export interface FeedPlan {
  /** Streamed and shown from the stream. */
  streamed: Map<Market, Set<string>>
  /**
   * Subscribed but not shown, and polled too: one symbol per market whose stream is on trial
   * (a name tried, or a field reading checked against its polls: core/trust). They take slots.
   */
  shadow: Map<Market, Set<string>>
  /** Polled (the shadow symbols among them). */
  polled: SymbolKey[]
  /** Why each watched symbol is streamed or polled (stream-choice.ts). */
  reasons: Map<SymbolKey, StreamReason>
  /** The polled symbols of the background class (PRIORITY.background). */
  background: Set<SymbolKey>
}

type Entry = PlanEntry

export class FeedPlanner {
  private cap: number
  /** The service's real symbol cap, once it refused more (capRefused). */
  private learnedCap = Infinity
  /** After an unlisted cap refusal: when silent slots count as the refused ones. */
  private capCheckAt: number | null = null
  private readonly clock: Clock
  private readonly silentAfterMs: number
  private available = false
  private watched: Entry[] = []
  /** When each streamed symbol got its slot (only while the stream is available). */
  private readonly slotSince = new Map<SymbolKey, number>()
  private readonly ticked = new Set<SymbolKey>()
  private untickedCount = 0
  private readonly demotedUntil = new Map<SymbolKey, number>()
  private readonly listeners = new Set<() => void>()
  private current: {
    streamed: Entry[]
    shadow: Entry[]
    polled: SymbolKey[]
    background: Set<SymbolKey>
  } = { streamed: [], shadow: [], polled: [], background: new Set() }
  private reasons = new Map<SymbolKey, StreamReason>()
  /**
   * Per market, what its stream may carry (the name learner's and the stream trust's gates,
   * the stricter of the two); absent: open.
   */
  private gates: ReadonlyMap<Market, MarketGate> = new Map()
  /** Symbols two markets want whose pushes name no market: only one of them may stream. */
  private readonly untold = new Set<string>()
  /** Markets whose stream name no push has proven yet: their slots are not held against others. */
  private unproven: ReadonlySet<Market> = new Set()
  private signature = ''
  /** The current plan's streamed keys, for streams(). */
  private streamedKeys: ReadonlySet<SymbolKey> = new Set()
  private timer: TimerHandle | null = null

  constructor(opts: { cap: number; clock: Clock; silentAfterMs?: number }) {
    this.cap = Math.max(0, Math.floor(opts.cap))
    this.clock = opts.clock
    this.silentAfterMs = opts.silentAfterMs ?? DEFAULT_SILENT_AFTER_MS
  }

  /** The cap plans use: the plan's, or lower once the service refused more (capRefused). */
  effectiveCap(): number {
    return Math.min(this.cap, this.learnedCap)
  }

  setCap(cap: number): void {
    this.cap = Math.max(0, Math.floor(cap))
    this.learnedCap = Infinity
    this.recompute()
  }

  /**
   * The service refused stream symbols over its cap (spec: Limits, caps "approximate"). Listed
   * ones poll (demoted, like silent ones) and the cap becomes what it accepted; unlisted, the cap
   * drops a margin (10 %, at least one) below what we had asked for, and the slots that stay
   * silent are demoted as usual. Either way nothing reconnects and the rest keep streaming.
   */
  capRefused(refused: SymbolKey[]): void {
    const asked = this.current.streamed.length
    const now = this.clock.now()
    for (const k of refused) this.demotedUntil.set(k, now + DEMOTION_MEMORY_MS)
    const accepted =
      refused.length > 0 ? asked - refused.length : asked - Math.max(1, Math.ceil(asked * 0.1))
    this.learnedCap = Math.min(this.learnedCap, Math.max(0, accepted))
    // Unlisted, the refused are the ones that stay silent: judged sooner than an ordinary slot.
    if (refused.length === 0) this.capCheckAt = now + CAP_SILENT_MS
    this.recompute()
  }

  /**
   * A streamed symbol the stream stopped feeding (silent-symbol-check.ts: REST saw a move no
   * push brought): polled for DEMOTION_MEMORY_MS, its slot to the next candidate.
   */
  demote(key: SymbolKey): void {
    if (!this.slotSince.has(key)) return
    this.demotedUntil.set(key, this.clock.now() + DEMOTION_MEMORY_MS)
    this.recompute()
  }

  /** Keys that do not parse as `market:SYMBOL` are dropped; a repeated key keeps its first place. */
  setWatched(entries: { key: SymbolKey; priority: number }[]): void {
    const seen = new Set<SymbolKey>()
    const next: Entry[] = []
    for (const e of entries) {
      const ref = parseSymbolKey(e.key)
      if (ref === null) continue
      const key = symbolKey(ref.market, ref.symbol)
      if (seen.has(key)) continue
      seen.add(key)
      next.push({
        key,
        market: ref.market,
        symbol: ref.symbol,
        priority: e.priority,
        order: next.length,
      })
    }
    this.watched = next
    for (const k of this.demotedUntil.keys()) if (!seen.has(k)) this.demotedUntil.delete(k)
    this.recompute()
  }

  /**
   * Per market, whether its stream can be used: 'closed' polls the market's symbols and gives
   * their slots to others; 'probe' polls them all and keeps its first symbol (by rank) also
   * subscribed, a shadow whose pushes try the next name or reading against its polls. A slot in
   * an `unproven` market (its name still on trial) is no incumbent: once another market's name
   * is proven, that market's symbols take the slots at once instead of waiting out the trial's
   * bound (bench/freshness/freshness-timeline.ts).
   */
  setMarketGates(gates: ReadonlyMap<Market, MarketGate>, unproven?: ReadonlySet<Market>): void {
    this.gates = gates
    this.unproven = unproven ?? new Set()
    this.recompute()
  }

  /**
   * A symbol two watched markets share came on the stream without a market tag: its pushes
   * cannot be told apart, so from now on it streams in one market only (whichever saves the
   * most calls, stream-choice.ts), and the other polls.
   */
  separate(symbol: string): void {
    if (this.untold.has(symbol)) return
    this.untold.add(symbol)
    this.recompute()
  }

  setStreamAvailable(available: boolean): void {
    if (available === this.available) return
    this.available = available
    this.recompute()
  }

  /** A push arrived for this symbol: it has earned its slot. */
  /**
   * A streamed symbol ticked. True when its slot is now known to have ticked: the caller may
   * skip later calls for it while tickEpoch stays the same (quote-entry.ts; 10k ticks/s: render
   * bench).
   */
  noteTick(key: SymbolKey): boolean {
    if (this.ticked.has(key)) return true
    if (!this.slotSince.has(key)) return false
    this.ticked.add(key)
    return true
  }

  /**
   * Whether the stream fed the symbol since its slot was given. One never fed is this planner's
   * own to demote (silentAfterMs); one fed and then silent is silent-symbol-check.ts's.
   */
  fedSinceSlot(key: SymbolKey): boolean {
    return this.slotSince.has(key) && this.ticked.has(key)
  }

  /** Changes whenever a symbol stops counting as ticked (its slot went): see noteTick. */
  get tickEpoch(): number {
    return this.untickedCount
  }

  /** Whether the current plan streams the symbol (a look-up, no copy of the plan). */
  streams(market: Market, symbol: string): boolean {
    return this.streamedKeys.has(symbolKey(market, symbol))
  }

  /** The symbols the current plan streams in one market. */
  streamedIn(market: Market): string[] {
    return this.current.streamed.filter((e) => e.market === market).map((e) => e.symbol)
  }

  /** A fresh copy; callers may keep or change it. */
  plan(): FeedPlan {
    return {
      streamed: byMarket(this.current.streamed),
      shadow: byMarket(this.current.shadow),
      polled: [...this.current.polled],
      reasons: new Map(this.reasons),
      background: new Set(this.current.background),
    }
  }

  /** Called after the plan changed (demotion, expiry, cap, watch list, availability). */
  onChange(cb: () => void): () => void {
    this.listeners.add(cb)
    return () => {
      this.listeners.delete(cb)
    }
  }

  /** Stops the internal timer (the planner keeps working if called again). */
  dispose(): void {
    this.clock.clearTimeout(this.timer)
    this.timer = null
  }

  private recompute(): void {
    const now = this.clock.now()
    this.expireDemotions(now)
    const byRank = [...this.watched].sort((a, b) => b.priority - a.priority || a.order - b.order)
    const shadow = this.available
      ? probeSymbols(
          byRank,
          this.gates,
          (e) => !this.demotedUntil.has(e.key) && STREAMABLE_MARKETS.has(e.market),
        )
      : []
    const shadowKeys = new Set(shadow.map((e) => e.key))
    const yielding = yieldingInstances(this.watched, this.untold)
    const choice = chooseStreams(
      this.watched
        .filter((e) => !shadowKeys.has(e.key))
        .map((e) => ({
          ...e,
          barred: this.barred(e),
          exclusive: this.untold.has(e.symbol),
          ...(yielding.has(e.key) ? { yields: true } : {}),
        })),
      {
        cap: Math.max(0, this.effectiveCap() - shadow.length),
        available: this.available,
        incumbents: this.incumbents(),
      },
    )
    const streamed = byRank.filter((e) => choice.streamed.has(e.key))
    const polledEntries = byRank.filter((e) => !choice.streamed.has(e.key))
    const polled = polledEntries.map((e) => e.key)
    const background = new Set(
      polledEntries.filter((e) => e.priority <= PRIORITY.background).map((e) => e.key),
    )
    this.reasons = choice.reasons
    for (const e of shadow) this.reasons.set(e.key, 'checking')
    this.streamedKeys = new Set(streamed.map((e) => e.key))
    this.holdSlots(this.streamedKeys, now)
    this.current = { streamed, shadow, polled, background }
    this.schedule(now)
    // Who streams, shadows and polls, not in what order: a reordered list changes nothing.
    const signature = [streamed, shadow, polledEntries]
      .map((list) =>
        list
          .map((e) => e.key)
          .sort()
          .join(','),
      )
      .concat([...background].sort().join(','))
      .join('|')
    if (signature === this.signature) return
    this.signature = signature
    for (const cb of this.listeners) cb()
  }

  /** Why a watched symbol may not take a slot now; null when it may. */
  private barred(e: Entry): ChoiceCandidate['barred'] {
    if (!STREAMABLE_MARKETS.has(e.market)) return 'not-streamable'
    if (this.demotedUntil.has(e.key)) return 'demoted'
    return (this.gates.get(e.market) ?? 'open') !== 'open' ? 'stream-market' : null
  }

  /** Demotions that ran out end; slots silent since they were given are demoted. */
  private expireDemotions(now: number): void {
    if (this.capCheckAt !== null && this.capCheckAt <= now) {
      this.capCheckAt = null
      const live = [...this.slotSince.keys()].filter((k) => this.ticked.has(k)).length
      for (const k of this.slotSince.keys())
        if (!this.ticked.has(k)) this.demotedUntil.set(k, now + DEMOTION_MEMORY_MS)
      if (live > 0) this.learnedCap = Math.min(this.learnedCap, live)
    }
    for (const [k, until] of this.demotedUntil) if (until <= now) this.demotedUntil.delete(k)
    if (!this.available) return
    for (const [k, since] of this.slotSince) {
      if (this.ticked.has(k) || now - since < this.silentAfterMs) continue
      this.demotedUntil.set(k, now + DEMOTION_MEMORY_MS)
    }
  }

  /** Slots held by the chosen symbols: kept since they were given, new ones from now. */
  private holdSlots(chosen: ReadonlySet<SymbolKey>, now: number): void {
    for (const k of [...this.slotSince.keys()]) {
      if (chosen.has(k)) continue
      this.slotSince.delete(k)
      if (this.ticked.delete(k)) this.untickedCount++
    }
    for (const k of chosen) if (!this.slotSince.has(k)) this.slotSince.set(k, now)
  }

  /** The symbols holding slots, but for those of a market whose name is still on trial. */
  private incumbents(): Set<SymbolKey> {
    const keys = [...this.slotSince.keys()]
    if (this.unproven.size === 0) return new Set(keys)
    return new Set(keys.filter((k) => !this.unproven.has(parseSymbolKey(k)?.market as Market)))
  }

  /** One timer for the earliest demotion deadline or demotion expiry. */
  private schedule(now: number): void {
    this.clock.clearTimeout(this.timer)
    this.timer = null
    let next = Infinity
    if (this.available) {
      for (const [k, since] of this.slotSince) {
        if (!this.ticked.has(k)) next = Math.min(next, since + this.silentAfterMs)
      }
    }
    for (const until of this.demotedUntil.values()) next = Math.min(next, until)
    if (this.capCheckAt !== null) next = Math.min(next, this.capCheckAt)
    if (next === Infinity) return
    this.timer = this.clock.setTimeout(
      () => {
        this.timer = null
        this.recompute()
      },
      Math.max(0, next - now),
    )
  }
}

function byMarket(entries: readonly Entry[]): Map<Market, Set<string>> {
  const out = new Map<Market, Set<string>>()
  for (const e of entries) {
    let set = out.get(e.market)
    if (set === undefined) out.set(e.market, (set = new Set()))
    set.add(e.symbol)
  }
  return out
}
