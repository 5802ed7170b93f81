/**
 * Tells the host the beat of the frames that apply prices, so it can send each quote batch just
 * before one of them instead of anywhere in it (app/feed/frame-beat.ts). A steady run of frames
 * is reported about once a second; a run that keeps no beat (a desk at rest, a frame now and
 * then) is not reported at all, and the host, hearing nothing, sends as it did without one.
 */

/** A steady run is reported this often, and only once it holds MIN_FRAMES. */
const REPORT_EVERY_MS = 1000
const MIN_FRAMES = 10
/** Frames further apart than this are no beat worth timing batches to (the wall draws at 10/s). */
export const MAX_BEAT_MS = 100
/** A frame further than this share of a period off the beat's grid counts as off it. */
const OFF_GRID = 0.15
/** A run with more than this share of its frames off the grid keeps no beat. */
const MAX_OFF_SHARE = 0.2

export class FrameBeatReporter {
  private times: number[] = []

  /**
   * `send` gets the period and one frame's time on the wall clock: `timeOrigin` (the page's
   * performance.timeOrigin) plus the frame's animation time.
   */
  constructor(
    private readonly send: (periodMs: number, atMs: number) => void,
    private readonly timeOrigin: number,
  ) {}

  /** An animation frame that applied prices, at its frame time. */
  frame(time: number): void {
    const last = this.times[this.times.length - 1]
    // A pause longer than any beat ends the run: what follows is timed afresh.
    if (last !== undefined && time - last > 2 * MAX_BEAT_MS) this.times = []
    this.times.push(time)
    const first = this.times[0] ?? time
    if (time - first < REPORT_EVERY_MS || this.times.length < MIN_FRAMES) return
    const period = beatOf(this.times)
    this.times = [time]
    if (period !== null) this.send(period, this.timeOrigin + time)
  }
}

/**
 * The period a run of frame times keeps: frames are a whole number of periods apart (a frame the
 * page had nothing for, or missed, is a gap of two), so the period is the span over the number of
 * shortest typical intervals in it. Null when the frames are too far apart or too many fall off its grid.
 */
export function beatOf(times: readonly number[]): number | null {
  const first = times[0]
  const last = times[times.length - 1]
  if (first === undefined || last === undefined || times.length < 3) return null
  const intervals = times
    .slice(1)
    .map((t, i) => t - (times[i] ?? t))
    .sort((a, b) => a - b)
  // The lower quartile: frames the page had nothing for make some intervals whole multiples.
  const typical = intervals[Math.floor(intervals.length / 4)] ?? 0
  if (!(typical > 0) || typical > MAX_BEAT_MS) return null
  const span = last - first
  const period = span / Math.max(1, Math.round(span / typical))
  let off = 0
  for (const t of times) {
    const periods = (last - t) / period
    if (Math.abs(periods - Math.round(periods)) > OFF_GRID) off++
  }
  return off <= times.length * MAX_OFF_SHARE ? period : null
}
