import type { SymbolStatus } from '../../shared/quote'
import { FakeClock } from '../clock'
import type { QuoteUpdate } from '../quotes/quote-fields'
import { QuotePoller } from '../poll/quote-poller'
import { seededRandom } from '../random'
import { RateGovernor } from '../rest/rate-governor'
import { RestClient } from '../rest/rest-client'
import {
  fail,
  ok,
  startRestServer,
  until,
  type RestTestServer,
  type SeenRequest,
  type TestReply,
} from './rest-test-server'

/**
 * A QuotePoller over a loopback REST service on a fake clock, for the poller's specs: the service
 * answers what each spec scripts, and `run` moves fake time while real HTTP finishes.
 * Call stopPollerRig() after each test.
 */
let server: RestTestServer | null = null
let poller: QuotePoller | null = null

export async function stopPollerRig(): Promise<void> {
  poller?.stop()
  poller = null
  await server?.close()
  server = null
}

/** A loopback service: every symbol quotes unless `unknown` names it; `blocked` paths answer 403. */
export function service(
  opts: {
    unknown?: string[]
    invalid?: string[]
    maxBatch?: number
    futuresDenied?: boolean
    status401?: () => boolean
  } = {},
) {
  return (req: SeenRequest): TestReply => {
    if (opts.status401?.()) return fail(401, 'UNAUTHORIZED')
    if (req.path === '/api/v1/market/agri/kline') {
      return ok({
        symbol: req.query.get('symbol'),
        bars: [
          {
            openTime: 1_767_623_340,
            closeTime: 1_767_623_399,
            open: 4,
            high: 5,
            low: 3,
            close: 4.5,
            volume: 1,
          },
        ],
      })
    }
    const symbols = (req.query.get('symbols') ?? '').split(',')
    if (symbols.length > (opts.maxBatch ?? 50)) return fail(400, 'INVALID_REQUEST')
    if (symbols.some((x) => opts.invalid?.includes(x))) return fail(400, 'INVALID_REQUEST')
    const bad = symbols.find((s) => opts.unknown?.includes(s))
    if (bad) return fail(400, 'UNKNOWN_SYMBOL', `unknown symbol ${bad}`)
    if (opts.futuresDenied && symbols.some((s) => s.endsWith('1!')))
      return fail(403, 'MARKET_NOT_ENABLED')
    return ok(
      symbols.map((s) => ({ symbol: s, last: String(s.length), closeTime: 1_767_623_400_000 })),
    )
  }
}

export interface Rig {
  clock: FakeClock
  governor: RateGovernor
  p: QuotePoller
  srv: RestTestServer
  updates: QuoteUpdate[]
  statuses: SymbolStatus[]
  /** Runs fake time forward in steps, letting real HTTP finish between steps. */
  run(ms: number, step?: number): Promise<void>
}

export async function rig(
  handler: (req: SeenRequest) => TestReply,
  rpm = 600,
  start?: number,
): Promise<Rig> {
  server = await startRestServer(handler)
  const clock = new FakeClock(start)
  const governor = new RateGovernor({ rpm, clock, random: seededRandom(3) })
  const client = new RestClient({ baseUrl: server.url, apiKey: 'key-poller-1', governor, clock })
  const updates: QuoteUpdate[] = []
  const statuses: SymbolStatus[] = []
  const p = new QuotePoller({
    client,
    governor,
    clock,
    onUpdates: (u) => updates.push(...u),
    onSymbolStatus: (s) => statuses.push(s),
  })
  poller = p
  const settle = (): Promise<void> => until(() => p.stats().inFlight === 0)
  return {
    clock,
    governor,
    p,
    srv: server,
    updates,
    statuses,
    run: async (ms, step = 250) => {
      for (let t = 0; t < ms; t += step) {
        clock.advance(step)
        await settle()
        await Promise.resolve()
        clock.advance(0)
        await settle()
      }
    },
  }
}

export const crypto = (n: number): string[] =>
  Array.from({ length: n }, (_, i) => `crypto:C${String(i).padStart(3, '0')}USDT`)
export const symbolsOf = (r: SeenRequest): string[] =>
  (r.query.get('symbols') ?? '').split(',').filter(Boolean)
