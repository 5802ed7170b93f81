import { afterEach, beforeEach } from 'vitest'
import type { Market } from '../../shared/markets/market'
import type { StreamState } from '../../shared/status'
import { FakeClock } from '../clock'
import type { TickdeskError } from '../errors'
import { seededRandom, type Random } from '../random'
import { StreamClient, type HandshakeBudget } from '../stream/stream-client'
import {
  startTestWsServer,
  waitUntil,
  type ServerConnection,
  type TestWsServer,
} from './ws-test-server'

/** A real (tiny) budget: counts handshakes and can hold them back until a given time. */
export class CountingBudget implements HandshakeBudget {
  handshakes = 0
  blockedUntil = 0
  outcomes: ({ ok: true } | { ok: false; error: TickdeskError })[] = []
  constructor(private readonly clock: FakeClock) {}
  delayFor(): number {
    return Math.max(0, this.blockedUntil - this.clock.now())
  }
  tryAcquire(): boolean {
    if (this.delayFor() > 0) return false
    this.handshakes++
    return true
  }
  report(outcome: { ok: true } | { ok: false; error: TickdeskError }): void {
    this.outcomes.push(outcome)
  }
}

export const subs = (entries: [Market, string[]][]): Map<Market, Set<string>> =>
  new Map(entries.map(([m, s]) => [m, new Set(s)]))

export interface StreamClientWorld {
  server: TestWsServer
  clock: FakeClock
  budget: CountingBudget
  errors: TickdeskError[]
  states: StreamState[]
}

/**
 * A fresh loopback ws server, FakeClock and budget per test, and the client made in it stopped
 * afterwards. Shared by the stream client specs.
 */
export function useStreamClientFixture(): {
  world: () => StreamClientWorld
  /** The running test's world, read through at each use (`w.server` is this test's server). */
  live: StreamClientWorld
  /** Swaps the test's server for one started with these options (e.g. one that never pongs). */
  replaceServer: (opts: Parameters<typeof startTestWsServer>[0]) => Promise<TestWsServer>
  makeClient: (over?: { random?: Random; apiKey?: string; url?: string }) => StreamClient
  conn: (i: number) => ServerConnection
  untilOpen: (c: StreamClient) => Promise<void>
  untilConnections: (n: number) => Promise<void>
} {
  let w: StreamClientWorld | null = null
  let client: StreamClient | null = null
  const world = (): StreamClientWorld => {
    if (w === null) throw new Error('stream client fixture used outside a test')
    return w
  }

  beforeEach(async () => {
    const clock = new FakeClock()
    w = {
      server: await startTestWsServer(),
      clock,
      budget: new CountingBudget(clock),
      errors: [],
      states: [],
    }
  })
  afterEach(async () => {
    await client?.stop()
    client = null
    await w?.server.close()
    w = null
  })

  const live: StreamClientWorld = {
    get server() {
      return world().server
    },
    get clock() {
      return world().clock
    },
    get budget() {
      return world().budget
    },
    get errors() {
      return world().errors
    },
    get states() {
      return world().states
    },
  }

  return {
    world,
    live,
    async replaceServer(opts) {
      const w = world()
      await w.server.close()
      w.server = await startTestWsServer(opts)
      return w.server
    },
    makeClient(over = {}) {
      const { server, budget, clock, errors, states } = world()
      const c = new StreamClient({
        url: over.url ?? server.url,
        apiKey: over.apiKey ?? 'test-key-1234',
        budget,
        clock,
        random: over.random ?? seededRandom(7),
      })
      c.on('error', (e) => errors.push(e))
      c.on('state', (s) => states.push(s))
      client = c
      return c
    },
    conn(i) {
      const c = world().server.connections[i]
      if (c === undefined) throw new Error(`no connection ${i}`)
      return c
    },
    untilOpen: (c) => waitUntil(() => c.state() === 'open', 'open'),
    untilConnections: (n) =>
      waitUntil(() => world().server.connections.length >= n, `${n} connections`),
  }
}
