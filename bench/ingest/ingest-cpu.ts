import { systemClock } from '../../src/core/clock'
import { streamTick } from '../../src/core/engine/engine-stream'
import { silentLogger } from '../../src/core/log'
import { InboundFrames } from '../../src/core/stream/stream-inbound'
import { SubscriptionBook } from '../../src/core/stream/subscription-book'
import type { DialectName } from '../../src/sim/dialects'
import { BENCH_MARKET, benchSymbols, buildTickFrames } from '../frames'
import { engineSink, SYMBOLS } from './ingest'

/**
 * ingest's core path without the socket, in CPU time per tick (process.cpuUsage, not the wall:
 * steadier on a shared machine): the same frames as Buffers, read by the stream client's frame
 * reader (InboundFrames: scan or parse, route, field reading) alone ("scan") and then into the
 * engine's tick handler and the app's listeners ("full"), against JSON.parse of each frame
 * ("raw"), alternately, the least of each over the rounds. What ingest.ts adds to both sides
 * (ws, the socket, the pusher) is not here: a guide for where a change lands, not the figure.
 *
 *   npx tsx bench/ingest/ingest-cpu.ts [compact|typed] [rounds=16]
 */
const dialect = (process.argv[2] ?? 'compact') as DialectName
const rounds = Number(process.argv[3] ?? 16)
const built = buildTickFrames({
  dialect,
  ticks: dialect === 'typed' ? 40_000 : 200_000,
  symbols: SYMBOLS,
  perFrame: 20,
})
const frames = built.frames.map((f) => Buffer.from(f))
const symbols = benchSymbols(SYMBOLS)
const sink = engineSink(systemClock, symbols)
let toEngine = true
const book = new SubscriptionBook()
book.setDesired(new Map([[BENCH_MARKET, new Set(symbols)]]))
// Only ticks come of these frames: the reader's other parts are never reached.
const reader = new InboundFrames({
  book,
  caps: {} as never,
  resync: {} as never,
  log: silentLogger,
  emit: (event, value) => {
    if (event === 'tick' && toEngine) streamTick(value as StreamTick, sink.side)
  },
  isCurrent: () => true,
  accountRefused: () => undefined,
  readingOf: (market) => sink.trust.readingOf(market),
})
type StreamTick = Parameters<typeof streamTick>[0]
const socket = {} as never

function cpuMs(): number {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}
function nsPerTick(run: () => void): number {
  const t0 = cpuMs()
  run()
  return ((cpuMs() - t0) * 1e6) / built.ticks
}
let parsed = 0
const raw = (): void => {
  for (const b of frames) {
    const v = JSON.parse(b.toString('utf8')) as { data?: unknown[] }
    parsed += Array.isArray(v.data) ? v.data.length : 1
  }
}
const core = (engine: boolean) => (): void => {
  toEngine = engine
  for (const b of frames) reader.read(socket, b, Date.now())
}
const R: number[] = []
const S: number[] = []
const F: number[] = []
for (let i = 0; i < rounds; i++) {
  const r = nsPerTick(raw)
  const s = nsPerTick(core(false))
  const f = nsPerTick(core(true))
  // The first two rounds warm the JIT.
  if (i < 2) continue
  R.push(r)
  S.push(s)
  F.push(f)
}
sink.close()
if (parsed === 0) throw new Error('ingest-cpu: the raw side parsed nothing')
const least = (a: number[]): number => Math.round(Math.min(...a))
console.log(
  `${dialect}, ns of CPU a tick (least of ${R.length} rounds): raw ${least(R)}, scan ${least(S)}, ` +
    `full ${least(F)}, engine part (full - scan) ${least(F) - least(S)}; ` +
    `raw as % of full ${((least(R) / least(F)) * 100).toFixed(1)} %`,
)
