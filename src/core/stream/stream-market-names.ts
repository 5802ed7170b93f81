import type { Market } from '../../shared/markets/market'
import type { QuoteFigure } from '../../shared/quote'
import type { Clock, TimerHandle } from '../clock'
import { StreamNameSchema } from '../../shared/markets/stream-markets'
import { isQuiet } from '../poll/session-pacing'

/**
 * The name each market goes by on the stream, learned rather than assumed. The spec shows the
 * subscribe's `market` only as "e.g. the crypto market" and says of the REST market tag "Values
 * of the market tag: not shown", so a service may call `fx` "forex" and refuse, or ack and never
 * feed, a subscription under our word (docs/open-readings.md).
 *
 * Per market:
 *   untried ──subscribe sent──▶ trying ──a push──▶ streaming (remembered per service URL)
 *                                 │ an error frame naming the market or this try,
 *                                 │ or no push within ANSWER_BOUND_MS (an ack alone is not enough;
 *                                 │ a bound with an unreadable frame in it is waited again)
 *                                 ▼
 *                       next candidate: untried (one probe symbol), or when none is left,
 *                       failed: polled, the whole list again after ROUND_PAUSE_MS
 * Candidates, in order: the explicit setting (alone: an override is never second-guessed), the
 * name remembered for this service, any market tag the service itself sent for the market (REST
 * payloads' `market`, pushes' market words none of ours), our own word, then COMMON_SPELLINGS. Each name is tried once a round; a
 * round runs its tries back to back (each as long as its bound) and starts again no sooner than
 * ROUND_PAUSE_MS after the last one failed. Tries cost no request: a subscribe on the open socket
 * is not metered (spec: Limits), only the handshake is.
 *
 * gate(): 'open' while the market streams or its first try runs (every planned symbol rides it;
 * one whose price grows older than TRIAL_FRESH_MS meanwhile is asked over REST:
 * ../engine/silent-symbol-check.ts), 'probe' while a later candidate is tried (one symbol: the
 * rest poll, their slots go elsewhere), 'closed' while the round pauses.
 */

/**
 * How long a subscription may stay without a push before the name counts as not streaming.
 * Crypto and USDT-M perpetuals trade around the clock and tick several times a second on any
 * venue: 4 s. FX, commodities, indices and futures tick every few seconds in session: 8 s. Stock
 * markets' quieter names may pause longer: 12 s. A market outside its session is not judged by
 * silence at all (session-pacing.ts): only an error frame fails it then.
 */
export const ANSWER_BOUND_MS: Readonly<Record<Market, number>> = {
  crypto: 4_000,
  'usdt-futures': 4_000,
  fx: 8_000,
  commodity: 8_000,
  index: 8_000,
  futures: 8_000,
  cn: 12_000,
  hk: 12_000,
  agri: 12_000,
}

/** Spellings other market-data services use; short on purpose (each costs a bound's wait). */
export const COMMON_SPELLINGS: Readonly<Record<Market, readonly string[]>> = {
  crypto: ['spot', 'crypto_spot', 'cryptocurrency'],
  'usdt-futures': ['futures_usdt', 'usdt_futures', 'usdt-perp', 'perpetual'],
  fx: ['forex', 'currency'],
  commodity: ['commodities', 'cmdty'],
  index: ['indices', 'indexes'],
  futures: ['cont_futures', 'future'],
  cn: ['a_share', 'ashare', 'cn_stock'],
  hk: ['hk_stock', 'hkex'],
  agri: ['agriculture'],
}

export const ROUND_PAUSE_MS = 5 * 60_000

export type MarketGate = 'open' | 'probe' | 'closed'
export type NameSource = 'setting' | 'remembered' | 'service-tag' | 'own' | 'spelling'
export type TryFailure = { how: 'refused' | 'silent' | 'no-answer'; code: string; message: string }

export interface MarketNameReport {
  market: Market
  name: string
  source: NameSource
  state: 'untried' | 'trying' | 'streaming' | 'failed'
  /** Names that did not stream this round, with how each failed. */
  failures: Array<{ name: string } & TryFailure>
  nextRoundAt: number | null
}

interface Entry {
  name: string
  source: NameSource
  state: MarketNameReport['state']
  acked: boolean
  tried: Map<string, TryFailure>
  tags: string[]
  timer: TimerHandle | null
  nextRoundAt: number | null
  /** Since a try failed and until a name streams: later tries ride one symbol. */
  probing: boolean
  lastFailure: TryFailure | null
}

/**
 * Names that streamed on this service before, and the field readings its pushes were trusted
 * under (core/trust) (persistence/stream-name-memory.ts keeps them).
 */
export interface StreamNameMemory {
  remembered: Partial<Record<Market, string>>
  learned(market: Market, name: string): void
  /** Field readings (figure -> the service's key) trusted before, per market. */
  readings?: Partial<Record<Market, Partial<Record<QuoteFigure, string>>>>
  readingLearned?(market: Market, keys: Partial<Record<QuoteFigure, string>>): void
  /** Resolves once what `learned` kept is on disk. */
  settled?(): Promise<void>
}

export interface StreamMarketNamesOptions {
  clock: Clock
  /** Explicit names (Settings, --stream-market, TICKDESK_STREAM_MARKETS): never learned over. */
  overrides?: Partial<Record<Market, string>>
  /** Names that streamed before on this service (stream-name-memory.ts). */
  remembered?: Partial<Record<Market, string>>
  /** A market's name or gate changed (renamed: subscribe it afresh under the new name). */
  onChange(market: Market, renamed: boolean): void
  /** A name streamed: worth remembering for the next start. */
  onLearned?(market: Market, name: string): void
  /**
   * How many frames the socket could not read so far (a count that only grows). A bound during
   * which one arrived proves nothing: the answer may have been the frame that was unreadable.
   */
  unreadable?(): number
  /**
   * Whether the plan still streams the market. A try whose symbols all lost their slots (to a
   * market whose name was proven meanwhile) is not judged by the silence that follows: it starts
   * again when the market is subscribed again.
   */
  asked?(market: Market): boolean
  /** Resolves once the names learned so far are saved (StreamNameMemory.settled). */
  saved?(): Promise<void>
}

export class StreamMarketNames {
  private readonly entries = new Map<Market, Entry>()
  /** Every name a subscribe went out under. */
  private readonly sentNames = new Set<string>()

  constructor(private readonly o: StreamMarketNamesOptions) {}

  /** The word sent as the subscribe's `market` for this market now. */
  wire(market: Market): string {
    return this.entry(market).name
  }

  gate(market: Market): MarketGate {
    const e = this.entry(market)
    if (e.state === 'failed') return 'closed'
    return e.state === 'streaming' || !e.probing ? 'open' : 'probe'
  }

  /** Whether a push proved the market's current name. */
  streaming(market: Market): boolean {
    return this.entry(market).state === 'streaming'
  }

  /** A subscribe for the market went out on an open socket: its try's clock starts. */
  sent(market: Market): void {
    const e = this.entry(market)
    if (e.state !== 'untried') return
    e.state = 'trying'
    e.acked = false
    this.sentNames.add(e.name)
    this.arm(market, e)
  }

  acked(market: Market): void {
    this.entry(market).acked = true
  }

  /** A push was routed to the market: the name works. */
  pushed(market: Market): void {
    const e = this.entry(market)
    if (e.state === 'streaming') return
    this.o.clock.clearTimeout(e.timer)
    e.timer = null
    e.state = 'streaming'
    // The names that failed stay on record (the doctor says what each try met).
    e.probing = false
    e.lastFailure = null
    this.o.onLearned?.(market, e.name)
    this.o.onChange(market, false)
  }

  /**
   * The service's own tag for the market (a REST payload's or a push's `market`): a candidate,
   * when it is a word a stream name can be (StreamNameSchema); anything else is never tried,
   * learned, kept on disk or shown.
   */
  serviceTag(market: Market, tag: string): void {
    const e = this.entry(market)
    if (!StreamNameSchema.safeParse(tag).success) return
    if (tag === e.name || e.tags.includes(tag) || e.tags.length >= 3) return
    e.tags.push(tag)
  }

  /**
   * An error frame about a market, naming no symbols (e.g. INVALID_REQUEST "unknown market fx").
   * It is the try whose name the message quotes, else the oldest try not yet acked (a service
   * answers subscribes in order). False when no try is running (nothing to blame).
   */
  refusedFrame(code: string, message: string): boolean {
    const trying = [...this.entries].filter(([, e]) => e.state === 'trying')
    const quoted = trying.find(([, e]) => quotes(message, e.name))
    // A second refusal of a name already failed (two subscribes were on their way): not news.
    if (quoted === undefined && [...this.sentNames].some((n) => quotes(message, n))) return true
    const blamed = quoted ?? trying.find(([, e]) => !e.acked)
    if (blamed === undefined) return false
    this.fail(blamed[0], { how: 'refused', code, message })
    return true
  }

  /** The socket went: tries in flight start again when it is back (their subscribes are resent). */
  socketLost(): void {
    for (const e of this.entries.values()) {
      if (e.state !== 'trying') continue
      this.o.clock.clearTimeout(e.timer)
      e.timer = null
      e.state = 'untried'
    }
  }

  /** Markets not streaming under any name tried so far (for the status line), with the last failure. */
  notStreaming(): Array<{ market: Market } & TryFailure> {
    const out: Array<{ market: Market } & TryFailure> = []
    for (const [market, e] of this.entries) {
      if (e.state !== 'streaming' && e.lastFailure !== null) out.push({ market, ...e.lastFailure })
    }
    return out
  }

  /**
   * What the status line says of the names: markets not streaming under any name tried yet, and
   * those streaming under a word not ours that nobody set (learned, remembered or the service's).
   */
  statusFacts(): {
    unstreamed: Array<{ market: Market } & TryFailure>
    learned: Array<{ market: Market; name: string }>
  } {
    const learned: Array<{ market: Market; name: string }> = []
    for (const [market, e] of this.entries)
      if (e.state === 'streaming' && e.source !== 'own' && e.source !== 'setting')
        learned.push({ market, name: e.name })
    return { unstreamed: this.notStreaming(), learned }
  }

  report(): MarketNameReport[] {
    return [...this.entries].map(([market, e]) => ({
      market,
      name: e.name,
      source: e.source,
      state: e.state,
      failures: [...e.tried].map(([name, f]) => ({ name, ...f })),
      nextRoundAt: e.nextRoundAt,
    }))
  }

  /** Stops the tries' timers; resolves once what was learned is saved, so a stop loses no name. */
  async dispose(): Promise<void> {
    for (const e of this.entries.values()) this.o.clock.clearTimeout(e.timer)
    await this.o.saved?.()
  }

  private entry(market: Market): Entry {
    let e = this.entries.get(market)
    if (e === undefined) {
      const first = this.candidates(market, null)[0] ?? { name: market, source: 'own' as const }
      e = {
        ...first,
        state: 'untried',
        acked: false,
        tried: new Map(),
        tags: [],
        timer: null,
        nextRoundAt: null,
        probing: false,
        lastFailure: null,
      }
      this.entries.set(market, e)
    }
    return e
  }

  private candidates(market: Market, e: Entry | null): Array<{ name: string; source: NameSource }> {
    const set = this.o.overrides?.[market]
    if (set !== undefined) return [{ name: set, source: 'setting' }]
    const out: Array<{ name: string; source: NameSource }> = []
    const add = (name: string | undefined, source: NameSource): void => {
      if (name !== undefined && !out.some((c) => c.name === name)) out.push({ name, source })
    }
    add(this.o.remembered?.[market], 'remembered')
    for (const tag of e?.tags ?? []) add(tag, 'service-tag')
    add(market, 'own')
    for (const s of COMMON_SPELLINGS[market]) add(s, 'spelling')
    return out
  }

  /** The bound's timer; a market outside its session is looked at again later, not failed. */
  private arm(market: Market, e: Entry): void {
    this.o.clock.clearTimeout(e.timer)
    const unreadableBefore = this.o.unreadable?.() ?? 0
    e.timer = this.o.clock.setTimeout(() => {
      e.timer = null
      if (e.state !== 'trying') return
      if (this.o.asked?.(market) === false) {
        e.state = 'untried'
        return
      }
      if (isQuiet(market, '', this.o.clock.now())) return this.arm(market, e)
      // Garbled frames in the window: judge the name on a window the socket could read.
      if ((this.o.unreadable?.() ?? 0) !== unreadableBefore) return this.arm(market, e)
      this.fail(market, {
        how: e.acked ? 'silent' : 'no-answer',
        code: e.acked ? 'ACKED_SILENT' : 'NO_ANSWER',
        message: e.acked
          ? `acknowledged under "${e.name}" but no price within ${ANSWER_BOUND_MS[market] / 1000} s`
          : `no answer under "${e.name}" within ${ANSWER_BOUND_MS[market] / 1000} s`,
      })
    }, ANSWER_BOUND_MS[market])
  }

  private fail(market: Market, failure: TryFailure): void {
    const e = this.entry(market)
    this.o.clock.clearTimeout(e.timer)
    e.timer = null
    e.tried.set(e.name, failure)
    e.probing = true
    e.lastFailure = failure
    const next = this.candidates(market, e).find((c) => !e.tried.has(c.name))
    if (next !== undefined) {
      e.name = next.name
      e.source = next.source
      e.state = 'untried'
      return this.o.onChange(market, true)
    }
    e.state = 'failed'
    e.nextRoundAt = this.o.clock.now() + ROUND_PAUSE_MS
    e.timer = this.o.clock.setTimeout(() => this.newRound(market, e), ROUND_PAUSE_MS)
    this.o.onChange(market, true)
  }

  private newRound(market: Market, e: Entry): void {
    e.timer = null
    const first = this.candidates(market, e)[0] ?? { name: market, source: 'own' as const }
    e.tried.clear()
    e.name = first.name
    e.source = first.source
    e.state = 'untried'
    e.nextRoundAt = null
    this.o.onChange(market, true)
  }
}

/** Whether the message names `name` as a word ("unknown market fx" names fx, not forex). */
function quotes(message: string, name: string): boolean {
  return new RegExp(`(^|[^\\w-])${escape(name)}($|[^\\w-])`).test(message)
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
