import { readFileSync } from 'node:fs'
import { systemClock } from '../../src/core/clock'
import { streamTick } from '../../src/core/engine/engine-stream'
import { HOLDABLE_SOCKET } from '../../src/core/stream/stream-read-hold'
import { benchSymbols, buildTickFrames } from '../frames'
import { benchStream, engineSink, rawRun, startPusher, SYMBOLS } from './ingest'

/**
 * What each part of ingest's core path costs over the real socket (ingest.ts's setting, not
 * ingest-cpu.ts's loop without one), in this thread's CPU a tick (/proc/thread-self/schedstat:
 * the pusher's thread and the other processes on the machine are not in it, so a loaded machine
 * lifts it far less than the wall): the raw client, then the core path with parts left out, each
 * the least over the rounds (median beside it).
 *
 *   scan       the stream client alone (frames read, ticks routed; no tick handler)
 *   full       the engine's tick handler and both listeners, as ingest.ts runs it
 *   noalert    without the alert listener
 *   nolisten   without either listener (no bridge batch, no alerts)
 *   storeonly  nor the minute bar: the store, the trust check and the planner
 *   scan16k, full16k  scan or full with the socket's read buffer at Node's default 16 KB instead
 *              of the one byte a read hold needs (stream-read-hold.ts): what that byte costs
 *
 *   npx tsx bench/ingest/ingest-parts.ts [rounds=6] [modes=scan,full,noalert,nolisten,storeonly]
 */
type Part = 'scan' | 'full' | 'noalert' | 'nolisten' | 'storeonly'
type Mode = Part | 'scan16k' | 'full16k'
const rounds = Number(process.argv[2] ?? 6)
const modes = (process.argv[3] ?? 'scan,full,noalert,nolisten,storeonly').split(',') as Mode[]
const built = buildTickFrames({
  dialect: 'compact',
  ticks: 200_000,
  symbols: SYMBOLS,
  perFrame: 20,
})
const pusher = await startPusher(built.frames)
const threadMs = (): number =>
  Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6

/** The sink with parts left out: the ingest's own listeners and minute bar, reached past `private`. */
function sinkFor(mode: Part): ReturnType<typeof engineSink> {
  const sink = engineSink(systemClock, benchSymbols(SYMBOLS))
  const ingest = sink.side.ingest as unknown as {
    listeners: Set<unknown>
    candles: { addTo: () => void }
  }
  const [batch] = ingest.listeners
  if (mode !== 'full') ingest.listeners.clear()
  if (mode === 'noalert') ingest.listeners.add(batch)
  if (mode === 'storeonly') ingest.candles.addTo = () => undefined
  return sink
}

async function coreRun(run: Mode): Promise<void> {
  const mode = run.replace('16k', '') as Part
  // The client reads its socket options at connect: a run sets them for its own socket only.
  HOLDABLE_SOCKET.readableHighWaterMark = run.endsWith('16k') ? 16 * 1024 : 1
  const symbols = benchSymbols(SYMBOLS)
  const { side, trust, close } = sinkFor(mode)
  const stream = benchStream(pusher.url, trust, symbols)
  let ticks = 0
  const done = new Promise<void>((resolve) => {
    stream.on('tick', (u) => {
      if (mode !== 'scan') streamTick(u, side)
      if (++ticks === built.ticks) resolve()
    })
  })
  stream.start()
  await done
  close()
  await stream.stop()
  HOLDABLE_SOCKET.readableHighWaterMark = 1
}

async function nsPerTick(run: () => Promise<unknown>): Promise<number> {
  const t0 = threadMs()
  await run()
  return ((threadMs() - t0) * 1e6) / built.ticks
}

// One round of each first, unmeasured: the JIT warms.
await rawRun(pusher.url, built.ticks)
for (const m of modes) await coreRun(m)
const raw: number[] = []
const by = new Map<Mode, number[]>(modes.map((m) => [m, []]))
for (let i = 0; i < rounds; i++) {
  raw.push(await nsPerTick(() => rawRun(pusher.url, built.ticks)))
  for (const m of modes) by.get(m)?.push(await nsPerTick(() => coreRun(m)))
}
await pusher.close()
const least = (a: number[]): number => Math.round(Math.min(...a))
const median = (a: number[]): number => Math.round([...a].sort((x, y) => x - y)[a.length >> 1] ?? 0)
console.log(`ns of this thread's CPU a tick, least (median) of ${rounds} rounds`)
console.log(`raw ${least(raw)} (${median(raw)})`)
for (const [m, a] of by)
  console.log(
    `${m} ${least(a)} (${median(a)}), raw as % of it ${((least(raw) / least(a)) * 100).toFixed(1)} %`,
  )
