import { describe, expect, it } from 'vitest'
import { MIN_FRAME_MS, pacedFrames, type PacerClock } from './frame-pacer'

/** A screen refreshing every intervalMs, with timers, stepped 1 ms at a time. */
function screen(intervalMs: number): PacerClock & {
  run: (ms: number) => void
  frames: number
} {
  let time = 0
  let nextFrame = intervalMs
  let queued: Array<(t: number) => void> = []
  let timers: Array<{ at: number; fn: () => void }> = []
  const s = {
    frames: 0,
    now: () => time,
    raf: (cb: (t: number) => void) => queued.push(cb),
    setTimer: (fn: () => void, ms: number) => timers.push({ at: time + ms, fn }),
    run: (ms: number) => {
      for (const end = time + ms; time < end;) {
        time += 1
        const due = timers.filter((t) => t.at <= time)
        timers = timers.filter((t) => t.at > time)
        for (const t of due) t.fn()
        if (time >= nextFrame) {
          nextFrame += intervalMs
          // Only a requested frame is produced (and costs paint).
          if (queued.length > 0) s.frames++
          const now = queued
          queued = []
          for (const cb of now) cb(time)
        }
      }
    },
  }
  return s
}

describe('pacedFrames', () => {
  it('applies at the next frame of a 60 Hz screen, every frame', () => {
    const s = screen(1000 / 60)
    const request = pacedFrames(s)
    const appliedAt: number[] = []
    for (let i = 0; i < 60; i++) {
      request(() => appliedAt.push(s.now()))
      s.run(1000 / 60)
    }
    expect(appliedAt).toHaveLength(60)
    expect(s.frames).toBe(60)
  })

  it('on a 120 Hz screen requests no frame in between: about 60 a second, no batch lost', () => {
    const s = screen(1000 / 120)
    const request = pacedFrames(s)
    let applied = 0
    let pending = false
    // A batch lands every 3 ms, as under a busy feed.
    for (let t = 0; t < 1000; t += 3) {
      if (!pending) {
        pending = true
        request(() => {
          pending = false
          applied++
        })
      }
      s.run(3)
    }
    s.run(50)
    expect(s.frames).toBe(applied)
    expect(applied).toBeGreaterThan(50)
    expect(applied).toBeLessThanOrEqual(1000 / MIN_FRAME_MS)
  })

  it('follows a slower pace while a view asks for it (the chart wall), and 60 again after', () => {
    const s = screen(1000 / 120)
    let pace = 100
    const request = pacedFrames(s, () => pace)
    let pending = false
    const feed = (ms: number): void => {
      for (let t = 0; t < ms; t += 3) {
        if (!pending) {
          pending = true
          request(() => {
            pending = false
          })
        }
        s.run(3)
      }
    }
    feed(1000)
    expect(s.frames).toBeGreaterThanOrEqual(9)
    expect(s.frames).toBeLessThanOrEqual(11)
    pace = MIN_FRAME_MS
    s.frames = 0
    feed(1000)
    expect(s.frames).toBeGreaterThan(50)
  })

  it('tells onApplied the time of each frame that applied prices, and of no other', () => {
    const s = screen(1000 / 60)
    const applied: number[] = []
    const request = pacedFrames(
      s,
      () => MIN_FRAME_MS,
      (time) => applied.push(time),
    )
    request(() => undefined)
    s.run(100)
    request(() => undefined)
    s.run(20)
    expect(applied).toHaveLength(2)
    expect((applied[1] ?? 0) - (applied[0] ?? 0)).toBeGreaterThan(80)
  })
})
