import { MarketEngine } from '../../src/core/engine/engine'
import { deriveStreamUrl } from '../../src/core/engine/engine-config'
import { startSimulator, type SimOptions } from '../../src/sim'
import { sleep } from '../chromium-page'
import { pickFreshnessSymbols } from './freshness'
import { clockAt, WEEKDAY_AFTERNOON_UTC } from '../../src/util/testing/clock-at'

const BEHAVIOURS: Record<string, SimOptions['behaviour']> = {
  client: {},
  refuse: { marketNames: 'service', unknownMarket: 'refuse' },
  silent: { marketNames: 'service', unknownMarket: 'silent' },
  perps: {
    marketNames: 'service',
    unknownMarket: 'silent',
    marketWords: { 'usdt-futures': 'linear_swap' },
  },
  ticker24h: { push: { layout: 'ticker24h', pushMarkets: 'none' } },
}

/**
 * Where the freshness bench's time goes, seen from the service's side: every second, the
 * requests the simulator counted (REST calls and handshakes), the symbols some socket is
 * subscribed to (by market), and the polled symbols' ages by when a REST answer last carried
 * them (sim.servedAt()), not by what the app reports. On the bench's weekday clock.
 * `npx tsx bench/freshness/freshness-timeline.ts refuse|silent|client|perps|ticker24h [seconds]`; NAMES=1
 * adds the engine's own view of each market's stream name and its prices' trust (a debugging
 * aid, not a measure).
 */
async function main(): Promise<void> {
  const mode = process.argv[2] ?? 'silent'
  const seconds = Number(process.argv[3] ?? 30)
  const behaviour: SimOptions['behaviour'] = BEHAVIOURS[mode] ?? {}
  const clock = clockAt(WEEKDAY_AFTERNOON_UTC)
  const sim = await startSimulator({ seed: 11, clock, behaviour })
  const key = sim.keys.free
  const engine = new MarketEngine(
    {
      baseUrl: sim.url,
      streamUrl: deriveStreamUrl(sim.url),
      apiKey: key,
      plan: 'free',
      rpm: 30,
      demo: false,
    },
    { clock },
  )
  const keys = pickFreshnessSymbols()
  for (const k of keys) engine.watch(k)
  const t0 = Date.now()
  const lag = clock.now() - t0
  engine.start()
  const served = sim.servedAt()
  const ages: number[] = []
  try {
    for (let s = 1; s <= seconds; s++) {
      await sleep(t0 + s * 1000 - Date.now())
      const now = Date.now() + lag
      const streamed = sim.streamedKeys()
      const byMarket = new Map<string, number>()
      for (const k of streamed) {
        const m = k.split(':')[0] as string
        byMarket.set(m, (byMarket.get(m) ?? 0) + 1)
      }
      const polledAges: number[] = []
      for (const k of keys) {
        if (streamed.has(k)) continue
        const at = served.get(k)
        polledAges.push(at === undefined ? Infinity : now - at)
      }
      polledAges.sort((a, b) => a - b)
      const med = polledAges[Math.floor(polledAges.length / 2)] ?? NaN
      if (s > 10) ages.push(...polledAges.filter(Number.isFinite))
      const st = sim.stats()
      const paths = Object.entries(st.byPath)
        .map(([p, n]) => `${p.replace('/api/v1/market/', '')}=${n}`)
        .join(' ')
      if (process.env.NAMES)
        console.log(
          engine.streamNames
            .report()
            .map((r) => `${r.market}:${r.name}/${r.state}`)
            .concat(engine.trustReport().map((r) => `${r.market} prices ${r.state}`))
            .join(' '),
        )
      console.log(
        `${String(s).padStart(3)}s req ${st.byKey[key]?.requests ?? 0} (ws ${st.wsHandshakes}) streamed ${[...byMarket].map(([m, n]) => `${m}=${n}`).join(' ') || '-'} polled median age ${Number.isFinite(med) ? (med / 1000).toFixed(1) : 'never'} s | ${paths}`,
      )
    }
  } finally {
    await engine.stop()
    await sim.close()
  }
  ages.sort((a, b) => a - b)
  console.log(JSON.stringify(sim.stats().symbolAsks))
  console.log(`after 10 s: service-side polled age median ${ages[Math.floor(ages.length / 2)]} ms`)
}

void main()
