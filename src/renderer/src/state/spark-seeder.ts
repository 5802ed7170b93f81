import type { TickdeskApi } from '../../../shared/bridge'
import type { Bar } from '../../../shared/quote'

/** How long a symbol the host had no history for waits before it is asked again. */
export const SPARK_RETRY_MS = 60_000

/**
 * Asks the host, once per symbol, for the last hour of 1-minute bars to seed a row's sparkline
 * (the host answers from bars it has, or fetches klines while the budget has room). A symbol it
 * had nothing for (no bars yet, or no spare budget on Free) is asked again a minute later, until
 * it has some; live prices draw its line meanwhile.
 */
export class SparkSeeder {
  private readonly seeded = new Set<string>()
  private readonly asking = new Set<string>()
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
    const ask = keys.filter((k) => !this.seeded.has(k) && !this.asking.has(k))
    if (ask.length === 0) return
    for (const k of ask) this.asking.add(k)
    this.api.invoke('getSparkHistory', { keys: ask.slice(0, 500) }).then(
      (answers) => {
        for (const k of ask) this.asking.delete(k)
        for (const { key, bars } of answers)
          if (bars.length > 1 && this.seed(key, bars)) this.seeded.add(key)
        // A key answered under its canonical spelling counts for the one asked.
        for (const k of ask)
          if (answers.some((a) => a.key === k && a.bars.length > 1)) this.seeded.add(k)
        if (ask.some((k) => !this.seeded.has(k))) this.retryLater()
      },
      () => {
        for (const k of ask) this.asking.delete(k)
        this.retryLater()
      },
    )
  }

  private retryLater(): void {
    if (this.retryArmed) return
    this.retryArmed = true
    this.setTimer(() => {
      this.retryArmed = false
      this.want(this.wanted)
    }, SPARK_RETRY_MS)
  }
}
