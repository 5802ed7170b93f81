import { DIALECTS, tickFrames, type DialectName, type TickPush } from '../src/sim/dialects'
import { seededRandom } from '../src/core/random'

/**
 * Push frames exactly as the simulator's dialects shape them (src/sim/dialects.ts), for a fixed
 * symbol universe, so parse and ingest measure the wire formats the client really meets.
 */
export const BENCH_MARKET = 'crypto'

export function benchSymbols(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `B${String(i).padStart(3, '0')}USDT`)
}

export function buildTickFrames(opts: {
  dialect: DialectName
  ticks: number
  symbols: number
  perFrame: number
  seed?: number
}): { frames: string[]; ticks: number } {
  const random = seededRandom(opts.seed ?? 1)
  const symbols = benchSymbols(opts.symbols)
  const prices = symbols.map((_, i) => 10 + i)
  const d = DIALECTS[opts.dialect]
  const perFrame = d.push === 'single' ? 1 : opts.perFrame
  const frames: string[] = []
  const ts = Date.now()
  let made = 0
  while (made < opts.ticks) {
    const batch: TickPush[] = []
    for (let j = 0; j < perFrame && made < opts.ticks; j++, made++) {
      const i = Math.floor(random() * symbols.length)
      const last = (prices[i] = (prices[i] ?? 10) * (1 + (random() - 0.5) * 0.001))
      batch.push({
        symbol: symbols[i] ?? 'B000USDT',
        market: BENCH_MARKET,
        last: Math.round(last * 1e4) / 1e4,
        bid: Math.round(last * 0.9999 * 1e4) / 1e4,
        ask: Math.round(last * 1.0001 * 1e4) / 1e4,
        volume: 1000 + made,
        ts: ts + made,
      })
    }
    frames.push(...tickFrames(d, batch))
  }
  return { frames, ticks: made }
}
