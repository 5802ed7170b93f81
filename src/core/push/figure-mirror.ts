import type { Quote } from '../../shared/quote'
import { figure } from '../quotes/quote-merge'
import { FIGURE_COUNT } from './packed-figures'

/** An entry's slots: QUOTE_FIGURES in their order, then ts and receivedAt. */
export const AT_TS = FIGURE_COUNT
export const AT_RECEIVED = FIGURE_COUNT + 1
export const MIRROR_SLOTS = FIGURE_COUNT + 2

/**
 * The stored quotes' numbers, mirrored in one array: QuoteStore compares a tick's figures with
 * these, not with the quote's own fields. A number in a field that may also hold null is a heap
 * object of its own, so each comparison read one more scattered object: ~9 of them a tick, most
 * of them out of cache in the render bench (the host shares two cores with Chromium; perf put
 * applyEntry at ~10% of the host at 10k ticks/s). Here an entry's numbers are two cache lines.
 * null is NaN: no figure is ever NaN (the parsers and the scanner drop non-finite numbers, and
 * what the store derives from finite numbers is finite or infinite).
 *
 * `sent` holds the figures as last drained (drainFrame: "changed fields only"), same layout.
 * The store writes the mirror wherever it writes a quote's numbers; nothing else writes either.
 */
export class FigureMirror {
  /** Current values; replaced (grown) when full, so read it after take(), not before. */
  figs = new Float64Array(MIRROR_SLOTS * 64)
  sent = new Float64Array(MIRROR_SLOTS * 64)
  private used = 0
  private readonly free: number[] = []

  /**
   * A slot for a new entry, filled from its quote; its offset. `sent` is left as it is: a new
   * entry's first drain sends every field (and overwrites it).
   */
  take(q: Readonly<Quote>): number {
    let at = this.free.pop()
    if (at === undefined) {
      if ((this.used + 1) * MIRROR_SLOTS > this.figs.length) this.grow()
      at = this.used++ * MIRROR_SLOTS
    }
    const figs = this.figs
    for (let i = 0; i < FIGURE_COUNT; i++) figs[at + i] = figure(q, i) ?? NaN
    figs[at + AT_TS] = q.ts
    figs[at + AT_RECEIVED] = q.receivedAt
    return at
  }

  release(at: number): void {
    this.free.push(at)
  }

  private grow(): void {
    const figs = new Float64Array(this.figs.length * 2)
    const sent = new Float64Array(this.sent.length * 2)
    figs.set(this.figs)
    sent.set(this.sent)
    this.figs = figs
    this.sent = sent
  }
}

/** A mirrored value as the quote holds it (NaN is null). */
export function held(v: number): number | null {
  return v !== v ? null : v
}
