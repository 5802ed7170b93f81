/**
 * What the simulator served, per `market:SYMBOL` and time: every REST quote row and every stream
 * push, with the figures it carried. A test holds the price a page or `watch --json` shows
 * against it ("was this a price the service served, and when?"), not against when a frame
 * arrived; the freshness bench reads each shown price's age from it. Kept for KEEP_MS.
 */
export interface ServedPrice {
  at: number
  via: 'rest' | 'stream'
  /** The figures as served; a push may carry no last (bid/ask only), a row may carry no bid. */
  last?: number
  bid?: number
  ask?: number
}

const KEEP_MS = 15 * 60_000

/**
 * Whether `price` is what this served quote priced: its last, else the mid of its bid and ask
 * (to within a float's rounding: a client may round the sum its own way).
 */
function pricedAt(s: ServedPrice, price: number): boolean {
  if (s.last !== undefined) return s.last === price
  if (s.bid === undefined || s.ask === undefined) return false
  const mid = (s.bid + s.ask) / 2
  return Math.abs(mid - price) <= Math.abs(mid) * 1e-12
}
/** Per symbol: a push every 50 ms for 15 min fits; a longer record drops its oldest. */
const MAX_PER_SYMBOL = 20_000

export class ServedPrices {
  private readonly bySymbol = new Map<string, ServedPrice[]>()

  /** `kept` false: nothing is recorded, and asking what was served is a caller's mistake. */
  constructor(private readonly kept = true) {}

  record(key: string, served: ServedPrice): void {
    if (!this.kept) return
    let list = this.bySymbol.get(key)
    if (list === undefined) this.bySymbol.set(key, (list = []))
    list.push(served)
    const from = served.at - KEEP_MS
    let drop = 0
    while (
      drop < list.length &&
      ((list[drop] as ServedPrice).at < from || list.length - drop > MAX_PER_SYMBOL)
    )
      drop++
    if (drop > 0) list.splice(0, drop)
  }

  /** What was served for `key` from `from` to `to` (epoch ms, inclusive), oldest first. */
  between(key: string, from: number, to: number): ServedPrice[] {
    this.mustBeKept()
    const list = this.bySymbol.get(key) ?? []
    return list.filter((s) => s.at >= from && s.at <= to)
  }

  /**
   * When `last` was last served for `key` at or before `at` (within the record); null when it
   * never was. A quote served without a last is priced by the mid of its bid and ask (what a
   * client shows for it, marked as a mid): `last` then matches that mid. The age of a shown price
   * is `at` minus this.
   */
  lastServedAt(key: string, last: number, at: number): number | null {
    this.mustBeKept()
    const list = this.bySymbol.get(key) ?? []
    for (let i = list.length - 1; i >= 0; i--) {
      const s = list[i] as ServedPrice
      if (s.at <= at && pricedAt(s, last)) return s.at
    }
    return null
  }

  clear(): void {
    this.bySymbol.clear()
  }

  private mustBeKept(): void {
    if (!this.kept)
      throw new Error('this simulator keeps no record of what it served (recordServed: false)')
  }
}
