import type { RequestFrame } from './patch-coalescer'

/**
 * Prices repaint at the next animation frame, but at most about 60 times a second: on a 60 Hz
 * screen that is every frame; on faster ones (120/144 Hz monitors, headless Chromium's ~110 Hz)
 * a batch that lands soon after an applied frame waits for a frame MIN_FRAME_MS after it, and
 * the frames in between are not even requested (a requested frame is painted and composited
 * whatever it carries). Render bench at 10k ticks/s: 110 frames a second kept the main thread
 * ~60% busy.
 */
export const MIN_FRAME_MS = 15
/** The frame request goes out this much early: the frame it gets starts on the screen's beat. */
const LEAD_MS = 4

export interface PacerClock {
  raf: (cb: (time: number) => void) => unknown
  now: () => number
  setTimer: (fn: () => void, ms: number) => unknown
}

/**
 * `onApplied` hears each applied frame's time (the host times its batches to them:
 * frame-beat-reporter.ts). `minFrameMs` is read at each request: a view that draws less often (the chart wall, ten times
 * a second) slows the whole page's price frames to its own pace while it is shown, so the frames
 * it does not draw are not requested, laid out and composited either.
 */
export function pacedFrames(
  clock: PacerClock,
  minFrameMs: () => number = () => MIN_FRAME_MS,
  onApplied?: (time: number) => void,
): RequestFrame {
  let last = Number.NEGATIVE_INFINITY
  const step =
    (run: () => void) =>
    (time: number): void => {
      last = time
      run()
      onApplied?.(time)
    }
  return (run) => {
    const wait = last + minFrameMs() - LEAD_MS - clock.now()
    if (wait > 0) clock.setTimer(() => clock.raf(step(run)), wait)
    else clock.raf(step(run))
  }
}
