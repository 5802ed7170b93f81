/**
 * Answers that hold over a span of instants (a session until its next change, a trading window
 * until it ends), a few kept per timetable, the oldest dropped first. More than one: a row asks
 * about now and about its last move, and tradingWindow walks the changes ahead, so with one kept
 * answer each question evicted the other's and every row of a closed market computed its
 * timeline again.
 */
export class SpanMemo<T> {
  private readonly kept = new Map<string, Array<{ from: number; to: number; value: T }>>()

  constructor(private readonly perId: number) {}

  /** The kept answer whose span holds `at` (from inclusive, to exclusive), if any. */
  get(id: string, at: number): T | undefined {
    for (const k of this.kept.get(id) ?? []) if (at >= k.from && at < k.to) return k.value
    return undefined
  }

  set(id: string, from: number, to: number, value: T): void {
    let spans = this.kept.get(id)
    if (spans === undefined) this.kept.set(id, (spans = []))
    if (spans.length === this.perId) spans.shift()
    spans.push({ from, to, value })
  }
}
