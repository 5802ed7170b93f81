import { parseFrame } from '../src/core/push/push-parser'
import type { DialectName } from '../src/sim/dialects'
import { buildTickFrames } from './frames'
import { report, round, type BenchContext, type BenchResult } from './stats'

/**
 * parse: frames/s and ticks/s of parseFrame per push dialect (src/sim/dialects.ts), next to a bare
 * JSON.parse of the same frames in the same run. Report only: the dialect is the service's choice.
 */
const DIALECT_NAMES: DialectName[] = ['typed', 'evented', 'compact']

function rate(frames: Buffer[], fn: (b: Buffer) => void): number {
  const t0 = performance.now()
  for (const b of frames) fn(b)
  return frames.length / ((performance.now() - t0) / 1000)
}

export async function parseBench(ctx: BenchContext): Promise<BenchResult> {
  const rows = []
  const json: Record<string, number> = {}
  for (const dialect of DIALECT_NAMES) {
    const built = buildTickFrames({
      dialect,
      ticks: ctx.full ? 400_000 : 100_000,
      symbols: 200,
      perFrame: 20,
    })
    const frames = built.frames.map((f) => Buffer.from(f))
    const perFrame = built.ticks / frames.length
    const ours: number[] = []
    const raw: number[] = []
    for (let i = 0; i < 3; i++) {
      raw.push(rate(frames, (b) => JSON.parse(b.toString('utf8'))))
      ours.push(rate(frames, (b) => parseFrame(b, Date.now())))
    }
    const best = Math.max(...ours)
    const bestRaw = Math.max(...raw)
    json[`${dialect}FramesPerSec`] = round(best, 0)
    json[`${dialect}TicksPerSec`] = round(best * perFrame, 0)
    json[`${dialect}PctOfJsonParse`] = round((best / bestRaw) * 100)
    rows.push(
      report(
        `${dialect} (${perFrame} tick/frame)`,
        round(best, 0),
        'frames/s',
        `${round(best * perFrame, 0)} ticks/s, ${round((best / bestRaw) * 100)}% of JSON.parse`,
      ),
    )
    ctx.log(`parse ${dialect}: ${round(best, 0)} frames/s`)
  }
  return { name: 'parse', rows, json }
}
