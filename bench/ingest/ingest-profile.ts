import { Session } from 'node:inspector/promises'
import { writeFileSync } from 'node:fs'
import type { DialectName } from '../../src/sim/dialects'
import { buildTickFrames } from '../frames'
import { corePathRun, rawRun, startPusher, SYMBOLS } from './ingest'

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
interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
}
interface Profile {
  nodes: ProfileNode[]
  samples: number[]
  timeDeltas: number[]
}

function selfByFunction(profile: Profile): { total: number; rows: [string, number][] } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const sums = new Map<string, number>()
  let total = 0
  profile.samples.forEach((id, i) => {
    const node = byId.get(id)
    if (node === undefined) return
    const f = node.callFrame
    const file = f.url.replace(/^.*\/(node_modules\/|src\/|bench\/)/, '$1')
    const key = `${f.functionName || '(anonymous)'} ${file}:${f.lineNumber + 1}`
    const ms = (profile.timeDeltas[i] ?? 0) / 1000
    total += ms
    sums.set(key, (sums.get(key) ?? 0) + ms)
  })
  return { total, rows: [...sums].sort((a, b) => b[1] - a[1]) }
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
