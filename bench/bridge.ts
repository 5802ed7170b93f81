import { decodeQuoteFrame, type QuoteFrame } from '../src/shared/quote-frame'
import { atMost, percentile, report, round, type BenchContext, type BenchResult } from './stats'
import { SyntheticFeed } from './synthetic-feed'

/**
 * bridge: what reaches the renderer at 10k ticks/s through the AppService path (QuoteStore ->
 * QuoteBatcher -> quote frame). The batcher sends when the event loop is free, so the bridge
 * must add well under one frame (16 ms) between a tick and its batch; it also checks every patch
 * against the previous value sent for that key: a field sent unchanged is a waste.
 */
export async function bridgeBench(ctx: BenchContext): Promise<BenchResult> {
  const seconds = ctx.full ? 10 : 3
  const sentValues = new Map<string, Record<string, unknown>>()
  const batchTimes: number[] = []
  const delays: number[] = []
  let patches = 0
  let fields = 0
  let unchangedFields = 0
  let bytes = 0
  const feed = new SyntheticFeed({
    symbols: 200,
    ticksPerSec: 10_000,
    onBatch: (frame: QuoteFrame) => {
      batchTimes.push(performance.now())
      const now = Date.now()
      const batch = decodeQuoteFrame(frame)
      bytes += JSON.stringify({ kind: 'event', event: { type: 'quotes', frame } }).length
      for (const p of batch) {
        patches++
        if (p.ts !== undefined) delays.push(now - p.ts)
        const prev = sentValues.get(p.key)
        const next: Record<string, unknown> = { ...prev }
        for (const [name, value] of Object.entries(p)) {
          if (name === 'key') continue
          fields++
          if (prev !== undefined && prev[name] === value) unchangedFields++
          next[name] = value
        }
        sentValues.set(p.key, next)
      }
    },
  })
  feed.start()
  await new Promise((r) => setTimeout(r, seconds * 1000))
  feed.stop()
  const ticks = feed.ticksSent()
  const span = ((batchTimes.at(-1) ?? 0) - (batchTimes[0] ?? 0)) / 1000
  const batchesPerSec = (batchTimes.length - 1) / span
  let minGap = Number.POSITIVE_INFINITY
  for (let i = 1; i < batchTimes.length; i++)
    minGap = Math.min(minGap, (batchTimes[i] ?? 0) - (batchTimes[i - 1] ?? 0))
  ctx.log(`bridge: ${ticks} ticks, ${batchTimes.length} batches in ${seconds} s`)
  return {
    name: 'bridge',
    rows: [
      report('ticks generated', round(ticks / seconds, 0), 'ticks/s'),
      atMost('tick to batch, p99', percentile(delays, 99), 'ms', 16, 'at most one frame'),
      report('batches to the renderer', round(batchesPerSec), 'batches/s'),
      report('shortest gap between batches', round(minGap), 'ms'),
      report('patches per batch (mean)', round(patches / batchTimes.length), 'patches'),
      atMost('fields sent unchanged', unchangedFields, 'fields', 0, `of ${fields} sent`),
      report('bridge payload', round(bytes / seconds / 1024), 'KiB/s'),
    ],
    json: {
      tickToBatchP99Ms: percentile(delays, 99),
      batchesPerSec: round(batchesPerSec),
      minGapMs: round(minGap),
      unchangedFields,
      ticksPerSec: round(ticks / seconds, 0),
      kibPerSec: round(bytes / seconds / 1024),
    },
  }
}
