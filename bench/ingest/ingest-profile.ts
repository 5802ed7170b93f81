import { Session } from 'node:inspector/promises'
import { writeFileSync } from 'node:fs'
import type { DialectName } from '../../src/sim/dialects'
import { buildTickFrames } from '../frames'
import { corePathRun, rawRun, startPusher, SYMBOLS } from './ingest'
import { sumSamples, type Profile } from '../cpu-profile'

/**
 * Where ingest's core path spends its time (ingest.ts measures only its rate): the same frames
 * over the same loopback pusher, the core path run `rounds` times under the V8 profiler of this
 * thread (the pusher is a worker thread, not in the profile), then self time summed by function.
 * The raw baseline is profiled alike for comparison: what both pay (ws, JSON.parse, GC) is the
 * floor.
 *
 *   npx tsx bench/ingest/ingest-profile.ts [compact|typed] [rounds=4] [top=25]
 *
 * Writes the profile to /tmp/ingest-<dialect>.cpuprofile for DevTools.
 */
/** Self time by function (name, file and line), and the total sampled. */
function selfByFunction(profile: Profile): { total: number; rows: [string, number][] } {
  const rows = sumSamples(profile, ({ callFrame: f }) => {
    const file = f.url.replace(/^.*\/(node_modules\/|src\/|bench\/)/, '$1')
    return `${f.functionName || '(anonymous)'} ${file}:${f.lineNumber + 1}`
  })
  return { total: rows.reduce((t, [, ms]) => t + ms, 0), rows }
}

async function profiled<T>(session: Session, run: () => Promise<T>): Promise<Profile> {
  await session.post('Profiler.enable')
  await session.post('Profiler.setSamplingInterval', { interval: 100 })
  await session.post('Profiler.start')
  await run()
  const { profile } = await session.post('Profiler.stop')
  return profile as unknown as Profile
}

async function main(): Promise<void> {
  const dialect = (process.argv[2] ?? 'compact') as DialectName
  const rounds = Number(process.argv[3] ?? 4)
  const top = Number(process.argv[4] ?? 25)
  const ticks = dialect === 'typed' ? 66_667 : 200_000
  const built = buildTickFrames({ dialect, ticks, symbols: SYMBOLS, perFrame: 20 })
  const pusher = await startPusher(built.frames)
  const session = new Session()
  session.connect()
  try {
    // One unprofiled round of each first: both warm (JIT) before what is summed.
    await rawRun(pusher.url, built.ticks)
    await corePathRun(pusher.url, built.ticks)
    for (const [name, run] of [
      ['raw', () => rawRun(pusher.url, built.ticks)],
      ['core', () => corePathRun(pusher.url, built.ticks)],
    ] as const) {
      const profile = await profiled(session, async () => {
        for (let i = 0; i < rounds; i++) await run()
      })
      writeFileSync(`/tmp/ingest-${dialect}-${name}.cpuprofile`, JSON.stringify(profile))
      const { total, rows } = selfByFunction(profile)
      const busy = rows.filter(([k]) => !k.startsWith('(idle)')).reduce((a, [, ms]) => a + ms, 0)
      console.log(
        `\n${name} (${dialect}, ${rounds} rounds of ${built.ticks} ticks): ${Math.round(total)} ms sampled, ` +
          `${Math.round(busy)} ms busy, ${((busy * 1e6) / (rounds * built.ticks)).toFixed(0)} ns busy a tick`,
      )
      for (const [key, ms] of rows.slice(0, top))
        console.log(
          `${((ms / total) * 100).toFixed(1).padStart(5)} %  ${ms.toFixed(0).padStart(6)} ms  ${key}`,
        )
    }
  } finally {
    session.disconnect()
    await pusher.close()
  }
}

void main()
