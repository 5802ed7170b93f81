/**
 * The simulator's trading day: which day an instant belongs to, for the daily quota (spec:
 * Limits) and the quotes' previous close and day range (spec: TickerQuote). By default days are
 * UTC days. endsIn() moves the next day boundary to a chosen moment, so a test or a soak can
 * carry a day roll-over in minutes while every timestamp the service sends stays on the real
 * clock (a client rightly refuses quotes from hours in the future).
 */

export const DAY_MS = 86_400_000

export class TradingDay {
  /**
   * Added to an instant before it is cut into days. endsIn() keeps the number of the day `now`
   * is in (or moves it one on), so day numbers never go back.
   */
  private shift = 0

  /** The day's number (days since the epoch on the shifted calendar). */
  index(now: number): number {
    return Math.floor((now + this.shift) / DAY_MS)
  }

  /** When the day `now` falls in began, epoch ms (a UTC midnight until endsIn() is used). */
  startOf(now: number): number {
    return this.index(now) * DAY_MS - this.shift
  }

  /** ms from `now` until the next day begins (more than 0). */
  msLeft(now: number): number {
    return this.startOf(now) + DAY_MS - now
  }

  /**
   * The current day ends `ms` from `now` (0: it ends now, and the next day has begun). The day
   * that follows is a full day long. Between 0 and one day.
   */
  endsIn(now: number, ms: number): void {
    if (!(ms >= 0 && ms <= DAY_MS)) throw new RangeError(`a day ends within a day, not in ${ms} ms`)
    // The next index starts at now + ms: (now + ms + shift) is a whole number of days.
    this.shift = (this.index(now) + 1) * DAY_MS - (now + ms)
  }
}
