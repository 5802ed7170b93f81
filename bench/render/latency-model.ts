/**
 * The hot phase's tick-to-DOM as two waits alone, with no CPU contention: a model, not a
 * measurement. Ticks arrive evenly in time; the host lets them out in batches every `gapMs`
 * (0: as they come, as the relay does); the page writes at screen frames (`screenHz`), painting
 * at most one frame in `every` (the frame pacer's cap: at 110 Hz, MIN_FRAME_MS 15 paints every
 * second frame), and at 10k ticks/s every painted frame has data. What it leaves out (the feed's
 * own 1 ms beat, parse, layout and paint, a loaded machine) adds about the same to both sides.
 *
 *   npx tsx bench/render/latency-model.ts
 */
interface Setting {
  name: string
  gapMs: number
  screenHz: number
  every: number
  /** The host lets a batch out this long before each painted frame instead (it knows the beat). */
  leadMs?: number
}

const TRANSIT_MS = 1

/** p50 and p95 of the model's tick-to-DOM for one setting (a fixed pseudo-random sample). */
export function modelLatency(s: Setting, n = 200_000): { p50: number; p95: number } {
  let seed = 1
  const random = (): number => {
    seed = (Math.imul(seed, 48271) >>> 0) % 2147483647
    return seed / 2147483647
  }
  const frame = 1000 / s.screenHz
  const hostPhase = random() * s.gapMs
  const lat: number[] = []
  for (let i = 0; i < n; i++) {
    const t = random() * 20_000
    if (s.leadMs !== undefined) {
      const beat = frame * s.every
      lat.push(Math.ceil((t + s.leadMs) / beat) * beat - t)
      continue
    }
    const out = s.gapMs === 0 ? t : hostPhase + Math.ceil((t - hostPhase) / s.gapMs) * s.gapMs
    let k = Math.ceil((out + TRANSIT_MS) / frame)
    while (k % s.every !== 0) k++
    lat.push(k * frame - t)
  }
  lat.sort((a, b) => a - b)
  return { p50: lat[Math.floor(n / 2)] ?? NaN, p95: lat[Math.floor(n * 0.95)] ?? NaN }
}

const SETTINGS: Setting[] = [
  { name: 'lean page, 110 Hz', gapMs: 0, screenHz: 110, every: 1 },
  { name: 'Tickdesk, 110 Hz, cap 15 ms, host gap 8 ms', gapMs: 8, screenHz: 110, every: 2 },
  { name: 'Tickdesk, 110 Hz, no cap, host gap 8 ms', gapMs: 8, screenHz: 110, every: 1 },
  { name: 'Tickdesk, 110 Hz, no cap, host gap 4 ms', gapMs: 4, screenHz: 110, every: 1 },
  { name: 'Tickdesk, 110 Hz, cap 15 ms, no host gap', gapMs: 0, screenHz: 110, every: 2 },
  {
    name: 'Tickdesk, 110 Hz, cap 15 ms, batch 2 ms before frame',
    gapMs: 0,
    screenHz: 110,
    every: 2,
    leadMs: 2,
  },
  {
    name: 'Tickdesk, 110 Hz, no cap, batch 2 ms before frame',
    gapMs: 0,
    screenHz: 110,
    every: 1,
    leadMs: 2,
  },
  { name: 'lean page, 60 Hz', gapMs: 0, screenHz: 60, every: 1 },
  { name: 'Tickdesk, 60 Hz, host gap 8 ms', gapMs: 8, screenHz: 60, every: 1 },
  { name: 'Tickdesk, 60 Hz, host gap 4 ms', gapMs: 4, screenHz: 60, every: 1 },
  { name: 'Tickdesk, 60 Hz, batch 2 ms before frame', gapMs: 0, screenHz: 60, every: 1, leadMs: 2 },
]

if (process.argv[1]?.endsWith('latency-model.ts')) {
  for (const s of SETTINGS) {
    const { p50, p95 } = modelLatency(s)
    console.log(
      `${s.name.padEnd(54)} p50 ${p50.toFixed(1).padStart(5)}  p95 ${p95.toFixed(1).padStart(5)} ms`,
    )
  }
}
