import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { CandleBuilder } from '../src/core/bars/candle-builder'
import { BarStore } from '../src/core/persistence/bar-store'
import { report, round, type BenchContext, type BenchResult } from './stats'

/**
 * barsSave: what saving the bars costs the app's event loop on a 1000-symbol crypto desk whose
 * minute rings are full (1000 minutes each), the case that took 0.3-0.4 s a save when
 * every save rewrote every symbol's rings. Here: the first save (nothing on disk yet), then
 * SAVES saves 5 minutes of prices apart (persistence/bar-store.ts appends what changed), then a
 * compaction (the whole cache rewritten from memory, in chunks): wall time and the longest the
 * event loop was held (monitorEventLoopDelay), in the same run. `npm run bench -- --only barsSave`.
 */
const SYMBOLS = 1000
const MINUTES = 1000
const SAVES = 4
const MIN = 60_000
const T0 = Date.UTC(2026, 10, 2)

export async function barsSaveBench(ctx: BenchContext): Promise<BenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'tickdesk-bench-bars-'))
  try {
    const keys = Array.from({ length: SYMBOLS }, (_, i) => `crypto:S${i}USDT`)
    const candles = new CandleBuilder()
    let minute = 0
    const trade = (minutes: number): void => {
      for (let k = 0; k < minutes; k++, minute++)
        for (const [i, key] of keys.entries())
          candles.add(key, T0 + minute * MIN + 1000, 100 + i + Math.sin(minute / 30))
    }
    trade(MINUTES)
    const store = new BarStore(dir)
    await store.load()
    const timed = async <T>(
      run: () => Promise<T>,
    ): Promise<{ ms: number; heldMs: number; value: T }> => {
      const delay = monitorEventLoopDelay({ resolution: 1 })
      delay.enable()
      const t0 = performance.now()
      const pending = run()
      // Up to its first await the save holds the loop; after it, the monitor sees any hold.
      const syncMs = performance.now() - t0
      const value = await pending
      const ms = performance.now() - t0
      delay.disable()
      return { ms, heldMs: Math.max(syncMs, delay.max / 1e6), value }
    }
    const first = await timed(() => store.save(candles))
    ctx.log(`bars save, first (everything): ${first.ms.toFixed(0)} ms, ${first.value.bytes} bytes`)
    const saves: Array<{ ms: number; heldMs: number; bytes: number }> = []
    for (let i = 0; i < SAVES; i++) {
      trade(5)
      const s = await timed(() => store.save(candles))
      saves.push({ ms: s.ms, heldMs: s.heldMs, bytes: s.value.bytes })
      ctx.log(
        `bars save after 5 min: ${s.ms.toFixed(0)} ms (loop held ${s.heldMs.toFixed(0)} ms), ` +
          `${s.value.series} series, ${s.value.bytes} bytes${s.value.compacted ? ', compacted' : ''}`,
      )
    }
    const compact = await timed(() => store.compact(candles))
    const sizes = await store.sizes()
    ctx.log(
      `bars compaction: ${compact.ms.toFixed(0)} ms (loop held ${compact.heldMs.toFixed(0)} ms), base ${sizes.base} bytes`,
    )
    const worst = (f: (s: (typeof saves)[number]) => number): number => Math.max(...saves.map(f))
    const load = `${SYMBOLS} symbols x ${MINUTES} minutes`
    return {
      name: 'barsSave',
      rows: [
        report('bars: a save 5 min after the last, longest', round(worst((s) => s.ms)), 'ms', load),
        report(
          'bars: event loop held by such a save, longest',
          round(worst((s) => s.heldMs)),
          'ms',
          `${round(worst((s) => s.bytes) / 1024)} KB appended`,
        ),
        report(
          'bars: compaction (whole cache rewritten)',
          round(compact.ms),
          'ms',
          `loop held ${round(compact.heldMs)} ms; ${round(sizes.base / 2 ** 20, 1)} MB; first save ${round(first.ms)} ms`,
        ),
      ],
      json: {
        firstMs: round(first.ms),
        saveMs: saves.map((s) => round(s.ms)),
        saveHeldMs: saves.map((s) => round(s.heldMs)),
        saveBytes: saves.map((s) => s.bytes),
        compactMs: round(compact.ms),
        compactHeldMs: round(compact.heldMs),
        baseBytes: sizes.base,
      },
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
