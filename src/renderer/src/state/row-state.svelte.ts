import { parseSymbolKey, type Market } from '../../../shared/market'
import type {
  Quote,
  QuotePatch,
  QuoteSource,
  SymbolStatus,
  SymbolStatusCode,
} from '../../../shared/quote'
import { SparkSeries } from '../lib/sparkline'

/**
 * Per-symbol reactive state. Each displayed field is its own $state, so a tick that changes only
 * `last` re-renders only that cell: at 10k ticks/s over 200 rows, the watchlist array itself is
 * never rebuilt (keyed rows stay mounted; patches are applied in place).
 */
export type Flash = 'up' | 'down' | null

export const FLASH_MS = 600

const PRICE_FIELDS = [
  'last',
  'change',
  'changePercent',
  'open',
  'high',
  'low',
  'prevClose',
  'volume',
  'bid',
  'ask',
] as const

export class RowState {
  readonly key: string
  readonly market: Market
  readonly symbol: string
  last = $state<number | null>(null)
  change = $state<number | null>(null)
  changePercent = $state<number | null>(null)
  open = $state<number | null>(null)
  high = $state<number | null>(null)
  low = $state<number | null>(null)
  prevClose = $state<number | null>(null)
  volume = $state<number | null>(null)
  bid = $state<number | null>(null)
  ask = $state<number | null>(null)
  /**
   * Epoch ms of the newest value. Deliberately not reactive: it changes on every tick, and what
   * shows it (ages, titles) refreshes with the once-a-second clock instead (STYLE: no per-tick
   * work for texts that change per second).
   */
  ts = 0
  /** Whether any timed value arrived (flips once); the reactive stand-in for `ts > 0`. */
  hasTime = $state(false)
  source = $state<QuoteSource | null>(null)
  stale = $state(false)
  statusCode = $state<SymbolStatusCode | null>(null)
  statusMessage = $state('')
  flash = $state<Flash>(null)
  /**
   * Bumped (by QuoteBook's once-a-second sparkline pass) after the sparkline gained points; the
   * line reads `spark` when this changes.
   */
  sparkVersion = $state(0)
  /** A point was added since the last sparkline pass. */
  sparkMoved = false
  readonly spark = new SparkSeries()
  flashUntil = 0

  constructor(key: string) {
    this.key = key
    const ref = parseSymbolKey(key)
    this.market = ref?.market ?? 'crypto'
    this.symbol = ref?.symbol ?? key
  }

  /** Applies changed fields; returns the price direction when `last` moved (for the flash). */
  apply(patch: QuotePatch | Quote, now: number): Flash {
    let direction: Flash = null
    const prev = this.last
    for (const field of PRICE_FIELDS) {
      const v = patch[field]
      if (v !== undefined && this[field] !== v) this[field] = v
    }
    if (patch.ts !== undefined) {
      this.ts = patch.ts
      if (!this.hasTime && patch.ts > 0) this.hasTime = true
    }
    if (patch.source !== undefined) this.source = patch.source
    if (patch.stale !== undefined) this.stale = patch.stale
    const next = this.last
    if (patch.last !== undefined && next !== null) {
      if (prev !== null && next !== prev) direction = next > prev ? 'up' : 'down'
      if (this.spark.push(next, now)) this.sparkMoved = true
    }
    return direction
  }

  applyStatus(status: SymbolStatus | null): void {
    const code = status === null || status.code === 'OK' ? null : status.code
    if (this.statusCode !== code) this.statusCode = code
    const message = status?.message ?? ''
    if (this.statusMessage !== message) this.statusMessage = message
  }
}
