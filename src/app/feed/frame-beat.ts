/**
 * The beat of the page's price frames, as the page last reported it: so quote batches can leave
 * just before the frame that will apply them, instead of a fixed gap after the last batch. With
 * the gap (8 ms), a batch landed anywhere in the page's frame and waited there, up to a frame;
 * timed to the beat, a frame's main batch leaves BEAT_LEAD_MS before it and what was read since
 * follows in one late batch BEAT_LATE_MS before it: at most two batches a frame, each waiting on
 * the page as little as the socket, the page's parse and a timer's slack allow.
 *
 * A report is a period and one frame's time on the wall clock (the page's
 * performance.timeOrigin + its animation frame time; the host's own timeOrigin is on the same
 * clock). A beat not heard for BEAT_FRESH_MS is forgotten: a hidden or quiet page reports none,
 * and the batcher falls back to its gap.
 */

/** A frame's main batch leaves this long before it. */
export const BEAT_LEAD_MS = 2
/** A frame's late batch (what was read after its main batch) leaves this long before it. */
export const BEAT_LATE_MS = 1
/** A batch that could leave only later than this before a frame is for the frame after it. */
export const BEAT_LATEST_MS = 0.5
/** A beat is used this long after its last report (the page reports about once a second). */
export const BEAT_FRESH_MS = 2_500

/** The frame a batch is for, when it should leave, and whether it follows that frame's main batch. */
export interface BatchPlan {
  frame: number
  sendAt: number
  late: boolean
}

export interface BeatClock {
  /** The batcher's clock (monotonic ms). */
  now(): number
  /** A wall-clock time (epoch ms, fractional) on the batcher's clock. */
  fromWall(epochMs: number): number
}

export const realBeatClock: BeatClock = {
  now: () => performance.now(),
  fromWall: (epochMs) => epochMs - performance.timeOrigin,
}

interface Beat {
  periodMs: number
  /** One frame's time on the batcher's clock. */
  at: number
  heardAt: number
}

export class FrameBeat {
  private beat: Beat | null = null

  constructor(private readonly clock: BeatClock = realBeatClock) {}

  /**
   * Two pages (the desk and a detail window) may report different beats; the faster one is kept
   * while it is fresh, so neither waits a slower page's frame.
   */
  report(periodMs: number, atEpochMs: number): void {
    const now = this.clock.now()
    const kept = this.fresh(now)
    if (kept !== null && kept.periodMs < periodMs * 0.9) return
    this.beat = { periodMs, at: this.clock.fromWall(atEpochMs), heardAt: now }
  }

  /**
   * The next batch's plan: the late batch of `served` (the frame the last batch was for) while
   * that frame can still be reached and had none, else the main batch of the next frame at least
   * BEAT_LATEST_MS away. Null while no fresh beat is known.
   */
  plan(now: number, served: number, lateSent: boolean): BatchPlan | null {
    const beat = this.fresh(now)
    if (beat === null) return null
    if (!lateSent && now + BEAT_LATEST_MS <= served) {
      return { frame: served, sendAt: served - BEAT_LATE_MS, late: true }
    }
    const from = Math.max(now + BEAT_LATEST_MS, served + beat.periodMs / 2)
    const frame = beat.at + Math.ceil((from - beat.at) / beat.periodMs) * beat.periodMs
    return { frame, sendAt: frame - BEAT_LEAD_MS, late: false }
  }

  private fresh(now: number): Beat | null {
    if (this.beat !== null && now - this.beat.heardAt > BEAT_FRESH_MS) this.beat = null
    return this.beat
  }
}
