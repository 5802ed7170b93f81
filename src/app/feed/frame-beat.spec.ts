import { describe, expect, it } from 'vitest'
import { encodeQuoteFrame, type QuoteFrame } from '../../shared/quote-frame'
import type { QuotePatch } from '../../shared/quote'
import {
  BEAT_FRESH_MS,
  BEAT_LATE_MS,
  BEAT_LATEST_MS,
  BEAT_LEAD_MS,
  FrameBeat,
  type BeatClock,
} from './frame-beat'
import { MIN_GAP_MS, QuoteBatcher } from './quote-batcher'
import { steppedTiming, type SteppedTiming } from '../testing/stepped-timing'

/** The page's wall clock reads this much more than the batcher's clock. */
const WALL = 1_700_000_000_000
const PERIOD = 1000 / 60

/** A loop stepped by hand a ms at a time; timers fire at whole ms, as setTimeout's do. */
function loop(): SteppedTiming & { beatClock: BeatClock } {
  const l = steppedTiming({ wholeMs: true })
  return { ...l, beatClock: { now: () => l.timing.now(), fromWall: (ms) => ms - WALL } }
}

/**
 * A feed of one tick a ms (a new price of one of 20 symbols; the price is its time) into a
 * batcher, and a page applying at 60 Hz frames from `firstFrame`, reporting its beat each second
 * until `reportUntil` (default: the whole run). A batch is applied at the first frame at least
 * BEAT_LATEST_MS after it left. Returns the batches and each tick's wait to the frame that
 * applied it.
 */
function feed(opts: { beat: boolean; ms: number; firstFrame: number; reportUntil?: number }) {
  const l = loop()
  const beat = opts.beat ? new FrameBeat(l.beatClock) : null
  const pending: QuotePatch[] = []
  const sent: Array<{ at: number; frame: QuoteFrame }> = []
  const batcher = new QuoteBatcher(
    l.timing,
    () => encodeQuoteFrame(pending.splice(0)),
    (frame) => sent.push({ at: l.timing.now(), frame }),
    beat,
  )
  const frameAfter = (t: number): number =>
    opts.firstFrame + Math.ceil((t + BEAT_LATEST_MS - opts.firstFrame) / PERIOD) * PERIOD
  for (let t = 0; t < opts.ms; t++) {
    if (t % 1000 === 0 && t <= (opts.reportUntil ?? opts.ms)) {
      beat?.report(PERIOD, WALL + frameAfter(t) - PERIOD)
    }
    l.run(1)
    pending.push({ key: `crypto:S${t % 20}`, last: l.timing.now() })
    batcher.request()
  }
  l.run(40)
  const waits: number[] = []
  const perFrame = new Map<number, number>()
  for (const { at, frame } of sent) {
    const applied = Math.round(frameAfter(at) * 1000)
    perFrame.set(applied, (perFrame.get(applied) ?? 0) + 1)
    for (const v of frame.values) if (v !== null) waits.push(frameAfter(at) - v)
  }
  waits.sort((a, b) => a - b)
  return {
    beat,
    sent,
    p95: waits[Math.floor(waits.length * 0.95)] ?? NaN,
    frames: perFrame.size,
    mostInOneFrame: Math.max(...perFrame.values()),
  }
}

describe('FrameBeat and the batcher', () => {
  it('times batches to the page frames: every frame gets prices, from two batches at most', () => {
    const timed = feed({ beat: true, ms: 3000, firstFrame: 0.3 })
    const gap = feed({ beat: false, ms: 3000, firstFrame: 0.3 })
    expect(timed.frames).toBeGreaterThanOrEqual(179)
    expect(timed.mostInOneFrame).toBe(2)
    // A tick waits for the next frame it can still make, and that is all: the gap's batches
    // land anywhere in the page's frame and wait there.
    expect(timed.p95).toBeLessThanOrEqual(PERIOD * 0.95 + BEAT_LEAD_MS + 1)
    expect(gap.p95).toBeGreaterThan(timed.p95 + 3)
    // Fewer batches than the gap's: fewer encodes and socket writes on both sides.
    expect(timed.sent.length).toBeLessThan(gap.sent.length)
  })

  it('sends a frame’s batches between BEAT_LEAD_MS (+ a whole-ms timer’s round-down) and BEAT_LATEST_MS before it', () => {
    const firstFrame = 5.25
    const { sent } = feed({ beat: true, ms: 1000, firstFrame })
    expect(sent.length).toBeGreaterThan(100)
    for (const { at } of sent) {
      const before = (((firstFrame - at) % PERIOD) + PERIOD) % PERIOD
      expect(before).toBeGreaterThanOrEqual(BEAT_LATEST_MS)
      expect(before).toBeLessThan(BEAT_LEAD_MS + 1)
    }
  })

  it('forgets a beat not heard for BEAT_FRESH_MS: the batcher keeps its gap again', () => {
    const { sent, beat } = feed({ beat: true, ms: 5000, firstFrame: 0.3, reportUntil: 1000 })
    const heardLast = 1000
    const after = sent.filter((s) => s.at > heardLast + BEAT_FRESH_MS + 20)
    expect(after.length).toBeGreaterThan(100)
    for (let i = 1; i < after.length; i++) {
      expect((after[i]?.at ?? 0) - (after[i - 1]?.at ?? 0)).toBeGreaterThanOrEqual(MIN_GAP_MS)
    }
    expect(beat?.plan(5000, Number.NEGATIVE_INFINITY, false)).toBeNull()
  })

  it('keeps the faster of two pages’ beats while it is fresh, and takes the slower once it is not', () => {
    const l = loop()
    const beat = new FrameBeat(l.beatClock)
    beat.report(PERIOD, WALL)
    beat.report(100, WALL)
    expect(beat.plan(1, Number.NEGATIVE_INFINITY, false)?.frame).toBeCloseTo(PERIOD, 3)
    l.run(BEAT_FRESH_MS + 1)
    beat.report(100, WALL)
    expect(beat.plan(BEAT_FRESH_MS + 1, Number.NEGATIVE_INFINITY, false)?.frame).toBeCloseTo(
      2600,
      3,
    )
  })

  it('follows a frame’s main batch with one late batch while the frame can still be reached', () => {
    const beat = new FrameBeat(loop().beatClock)
    beat.report(10, WALL)
    expect(beat.plan(3, Number.NEGATIVE_INFINITY, false)).toEqual({
      frame: 10,
      sendAt: 10 - BEAT_LEAD_MS,
      late: false,
    })
    // The main batch for 10 has gone: what is read by 9.5 follows it, once.
    expect(beat.plan(9, 10, false)).toEqual({ frame: 10, sendAt: 10 - BEAT_LATE_MS, late: true })
    expect(beat.plan(9, 10, true)?.frame).toBe(20)
    expect(beat.plan(9.6, 10, false)?.frame).toBe(20)
  })
})
