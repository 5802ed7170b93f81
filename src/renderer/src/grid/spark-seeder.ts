import { SPARK_HISTORY_BATCH, type TickdeskApi } from '../../../shared/bridge'
import type { Bar } from '../../../shared/quote'

/** How long a symbol the host had no history for waits before it is asked again. */
export const SPARK_RETRY_MS = 60_000

/**
 * Asks the host, once per symbol, for the last hour of 1-minute bars to seed a row's sparkline
 * (the host answers from bars it has, or fetches klines while the budget has room). A symbol it
 * had nothing for (no bars yet, or no spare budget on Free) is asked again a minute later, until
 * it has some; live prices draw its line meanwhile. A long list is asked in batches of
 * SPARK_HISTORY_BATCH, one call at a time in list order: a 5000-symbol list is ten bounded
 * replies, not one of 300,000 bars, and a tab switch meanwhile is asked for next.
 */
export class SparkSeeder {
  private readonly seeded = new Set<string>()
  /** Asked since the last retry and answered with nothing: not asked again until the retry. */
  private readonly tried = new Set<string>()
  private inFlight = false
  private retryArmed = false
  private wanted: readonly string[] = []

  constructor(
    private readonly api: Pick<TickdeskApi, 'invoke'>,
    private readonly seed: (key: string, bars: readonly Bar[]) => boolean,
    private readonly setTimer: (fn: () => void, ms: number) => unknown,
  ) {}

  /** The symbols on the active list: each gets its history once. */
  want(keys: readonly string[]): void {
    this.wanted = keys
    if (this.inFlight) return
    const ask: string[] = []
    for (const k of keys) {
      if (ask.length >= SPARK_HISTORY_BATCH) break
      if (!this.seeded.has(k) && !this.tried.has(k)) ask.push(k)
    }
    if (ask.length === 0) return
    this.inFlight = true
    this.api.invoke('getSparkHistory', { keys: ask }).then(
      (answers) => {
        this.inFlight = false
        for (const { key, bars } of answers)
          if (bars.length > 1 && this.seed(key, bars)) this.seeded.add(key)
        // A key answered under its canonical spelling counts for the one asked.
        const answered = new Set(answers.filter((a) => a.bars.length > 1).map((a) => a.key))
        for (const k of ask) if (answered.has(k)) this.seeded.add(k)
        for (const k of ask) if (!this.seeded.has(k)) this.tried.add(k)
        if (this.tried.size > 0) this.retryLater()
        this.want(this.wanted)
      },
      () => {
        this.inFlight = false
        for (const k of ask) this.tried.add(k)
        this.retryLater()
      },
    )
  }

  private retryLater(): void {
    if (this.retryArmed) return
    this.retryArmed = true
    this.setTimer(() => {
      this.retryArmed = false
      this.tried.clear()
      this.want(this.wanted)
    }, SPARK_RETRY_MS)
  }
}
