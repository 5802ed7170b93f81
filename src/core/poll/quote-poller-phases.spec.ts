import { afterEach, describe, expect, it } from 'vitest'
import { FakeClock } from '../clock'
import { QuotePoller } from './quote-poller'
import { seededRandom } from '../random'
import { RateGovernor } from '../rest/rate-governor'
import { RestClient } from '../rest/rest-client'
import { ok, startRestServer, until, type RestTestServer } from '../testing/rest-test-server'

/**
 * A family's symbols that joined the poll set at different moments (they left the stream one
 * after another while a market's stream name was learned) are asked together again within a
 * round on a small plan's budget, not in two half-full calls a round for good (the
 * Free-plan freshness target; bench/freshness/freshness-timeline.ts).
 */
let server: RestTestServer | null = null
let poller: QuotePoller | null = null
afterEach(async () => {
  poller?.stop()
  poller = null
  await server?.close()
  server = null
})

const symbols = (prefix: string, n: number): string[] =>
  Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(2, '0')}`)

describe('QuotePoller on a Free budget', () => {
  it('merges a family split by symbols joining the poll set apart into one call a round', async () => {
    server = await startRestServer((req) =>
      ok(
        (req.query.get('symbols') ?? '')
          .split(',')
          .map((s) => ({ symbol: s, last: '1', closeTime: 1_767_623_400_000 })),
      ),
    )
    const clock = new FakeClock()
    const governor = new RateGovernor({ rpm: 30, clock, random: seededRandom(3) })
    const client = new RestClient({ baseUrl: server.url, apiKey: 'key-phases-1', governor, clock })
    const p = new QuotePoller({
      client,
      governor,
      clock,
      onUpdates: () => undefined,
      onSymbolStatus: () => undefined,
    })
    poller = p
    const srv = server
    const run = async (ms: number): Promise<void> => {
      for (let t = 0; t < ms; t += 250) {
        clock.advance(250)
        await until(() => p.stats().inFlight === 0)
        await Promise.resolve()
      }
    }
    const first = symbols('crypto:A', 10).map((s) => s + 'USDT')
    const later = symbols('crypto:B', 10).map((s) => s + 'USDT')
    const fx = symbols('fx:F', 10)
    p.setSymbols([...first, ...fx])
    p.start()
    await run(3_000)
    // The rest of the family leaves the stream a moment later.
    p.setSymbols([...first, ...later, ...fx])
    await run(30_000)
    const since = srv.requests.length
    await run(30_000)
    const cryptoCalls = srv.requests
      .slice(since)
      .filter((r) => r.path === '/api/v1/market/crypto/quote')
      .map((r) => (r.query.get('symbols') ?? '').split(',').length)
    expect(cryptoCalls.length).toBeGreaterThan(3)
    // Every crypto call of the last 30 s carries the whole family (20), not half of it.
    expect(Math.min(...cryptoCalls)).toBe(20)
  })
})
