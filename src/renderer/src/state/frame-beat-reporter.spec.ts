import { describe, expect, it } from 'vitest'
import { FrameBeatReporter, MAX_BEAT_MS, beatOf } from './frame-beat-reporter'

const ORIGIN = 1_700_000_000_000
const HZ60 = 1000 / 60

function frames(
  from: number,
  period: number,
  n: number,
  skip: (i: number) => boolean = () => false,
) {
  const out: number[] = []
  for (let i = 0; i < n; i++) if (!skip(i)) out.push(from + i * period)
  return out
}

function reports(times: readonly number[]): Array<{ periodMs: number; atMs: number }> {
  const sent: Array<{ periodMs: number; atMs: number }> = []
  const reporter = new FrameBeatReporter((periodMs, atMs) => sent.push({ periodMs, atMs }), ORIGIN)
  for (const t of times) reporter.frame(t)
  return sent
}

describe('FrameBeatReporter', () => {
  it('reports a steady 60 Hz run about once a second, its period and a frame on the wall clock', () => {
    const sent = reports(frames(123.4, HZ60, 60 * 5))
    expect(sent.length).toBeGreaterThanOrEqual(4)
    expect(sent.length).toBeLessThanOrEqual(5)
    for (const { periodMs, atMs } of sent) {
      expect(periodMs).toBeCloseTo(HZ60, 6)
      // On the beat: a whole number of periods from the run's first frame.
      const periods = (atMs - ORIGIN - 123.4) / HZ60
      expect(Math.abs(periods - Math.round(periods))).toBeLessThan(1e-4)
    }
  })

  it('finds the screen’s period through frames the page had nothing for (every third one here)', () => {
    const sent = reports(frames(0, HZ60, 60 * 3, (i) => i % 3 === 2))
    expect(sent.length).toBeGreaterThanOrEqual(2)
    for (const { periodMs } of sent) expect(periodMs).toBeCloseTo(HZ60, 6)
    // A paced page applying every second frame of a 110 Hz screen keeps that as its beat.
    const paced = reports(frames(0, 2000 / 110, 110 * 2))
    for (const { periodMs } of paced) expect(periodMs).toBeCloseTo(2000 / 110, 6)
  })

  it('reports nothing for frames that keep no beat: a desk at rest, ticks at random moments', () => {
    let seed = 7
    const random = (): number => {
      seed = (seed * 48271) % 2147483647
      return seed / 2147483647
    }
    const times: number[] = []
    for (let t = 0; t < 5000; t += 5 + random() * 40) times.push(t)
    expect(reports(times)).toEqual([])
    // Frames further apart than any beat worth timing batches to.
    expect(reports(frames(0, MAX_BEAT_MS * 1.5, 40))).toEqual([])
  })

  it('starts a new run after a pause, so a beat is never reported across one', () => {
    const before = frames(0, HZ60, 30)
    const after = frames(5000.5, HZ60, 70)
    const sent = reports([...before, ...after])
    expect(sent).toHaveLength(1)
    expect((sent[0]?.atMs ?? 0) - ORIGIN).toBeGreaterThan(5000)
  })

  it('beatOf: null for too few frames', () => {
    expect(beatOf([1, 2])).toBeNull()
    expect(beatOf(frames(0, 10, 20))).toBeCloseTo(10, 9)
  })
})
