import { parseSymbolKey, symbolKey, type SymbolKey } from '../../shared/markets/market'
import type { Batch } from './poll-batch'
import { fresh, type Tracked } from './poll-pace'

/** A stream sample waits this long for a call of its family to ride before it goes on its own. */
export const RIDE_WAIT_MS = 30_000

/**
 * Stream samples (core/trust): streamed symbols asked over REST once, to check the stream's
 * price against the service's quote. A sample rides the next call of its family (poll-riders.ts
 * withSamples); one that waited RIDE_WAIT_MS without a call going is owed at once, a call of its
 * own if nothing else of its family is due. What they cost is counted: samples asked, and calls
 * that carried samples only (the calls checking the stream spent beyond polling).
 */
export class StreamSamples {
  /** Waiting to ride, and since when. */
  readonly waiting = new Map<SymbolKey, { t: Tracked; since: number }>()
  readonly counts = { asked: 0, callsOfTheirOwn: 0 }
  private readonly owed = new Set<SymbolKey>()

  /** `known`: whether the poll queue asks the symbol anyway (no sample needed then). */
  add(keys: readonly SymbolKey[], now: number, known: (key: SymbolKey) => boolean): void {
    for (const raw of keys) {
      const ref = parseSymbolKey(raw)
      if (!ref) continue
      const key = symbolKey(ref.market, ref.symbol)
      if (known(key) || this.waiting.has(key)) continue
      this.waiting.set(key, { t: fresh(key, ref.market, ref.symbol), since: now })
    }
  }

  lookup(key: SymbolKey): Tracked | undefined {
    return this.waiting.get(key)?.t
  }

  /** Samples that waited too long for a ride, handed to `owe` (a one-shot poll owed now). */
  overdue(now: number, inFlight: ReadonlySet<SymbolKey>, owe: (t: Tracked) => void): void {
    for (const [key, s] of this.waiting) {
      if (now - s.since < RIDE_WAIT_MS || inFlight.has(key)) continue
      this.waiting.delete(key)
      this.owed.add(key)
      owe(s.t)
    }
  }

  /** A batch went: its samples are no longer waiting, and counted. */
  began(batch: Batch): void {
    let sampled = 0
    for (const key of batch.keys) if (this.waiting.delete(key) || this.owed.has(key)) sampled++
    this.counts.asked += sampled
    if (sampled > 0 && sampled === batch.keys.length) this.counts.callsOfTheirOwn++
  }

  /** A batch is done (not split): its owed samples are answered. */
  ended(key: SymbolKey): void {
    this.owed.delete(key)
  }
}
