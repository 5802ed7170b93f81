import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startSimulator, STREAM_PATH, type SimServer } from '../../sim'
import { runCli, serviceEnv, tempDataDir, type CliRun } from '../testing/cli-harness'
import { sessionAt } from '../../shared/markets/market-sessions'
import { run } from './watch'

const QUOTE_KEYS = [
  'type',
  'market',
  'symbol',
  'last',
  'priceIs',
  'change',
  'changePercent',
  'bid',
  'ask',
  'volume',
  'ts',
  'source',
  'stale',
  'session',
  'sessionNext',
]
const NUMBER_OR_NULL = ['last', 'change', 'changePercent', 'bid', 'ask', 'volume']

let sim: SimServer
let data: Awaited<ReturnType<typeof tempDataDir>>
const running: CliRun[] = []

beforeEach(async () => {
  sim = await startSimulator({ seed: 7, tickIntervalMs: 50 })
  data = await tempDataDir()
})
afterEach(async () => {
  for (const r of running.splice(0)) {
    r.abort()
    await r.exit.catch(() => undefined)
  }
  await sim.close()
  await data.remove()
})

function watch(args: string[], key = sim.keys.pro, extra: NodeJS.ProcessEnv = {}): CliRun {
  const r = runCli(run, [...args, '--json'], {
    env: serviceEnv(sim.url, key, data.dir, { TICKDESK_PLAN: 'pro', ...extra }),
  })
  running.push(r)
  return r
}

const isQuote =
  (symbol: string, source?: string) =>
  (l: Record<string, unknown>): boolean =>
    l.type === 'quote' && l.symbol === symbol && (source === undefined || l.source === source)
const isStatus =
  (state: string, code?: string | null) =>
  (l: Record<string, unknown>): boolean =>
    l.type === 'status' && l.state === state && (code === undefined || l.code === code)

describe('tickdesk watch --json on a healthy service', () => {
  it('prints only JSON lines, each quote with exactly the documented keys and types, and exits 0 after --duration', async () => {
    const r = watch(['crypto:BTCUSDT', 'fx:EURUSD', '--duration', '3'])
    expect(await r.exit).toBe(0)
    const raw = r.stdout().split('\n')
    expect(raw.pop()).toBe('')
    for (const line of raw) expect(() => JSON.parse(line), line).not.toThrow()
    const quotes = r.lines().filter((l) => l.type === 'quote')
    expect(quotes.length).toBeGreaterThan(2)
    for (const q of quotes) {
      expect(Object.keys(q).sort()).toEqual([...QUOTE_KEYS].sort())
      for (const k of NUMBER_OR_NULL)
        expect(q[k] === null || typeof q[k] === 'number', k).toBe(true)
      expect(typeof q.ts).toBe('number')
      expect(q.ts as number).toBeGreaterThan(Date.UTC(2020, 0, 1))
      expect(['stream', 'poll', 'cache']).toContain(q.source)
      expect(typeof q.stale).toBe('boolean')
      expect(typeof q.market).toBe('string')
      expect(typeof q.symbol).toBe('string')
    }
    expect(quotes.map((q) => q.symbol)).toEqual(expect.arrayContaining(['BTCUSDT', 'EURUSD']))
  })

  it('reports live with a null code and streams fresh quotes', async () => {
    const r = watch(['crypto:BTCUSDT'])
    const live = await r.waitFor(isStatus('live'))
    expect(live).toEqual({
      type: 'status',
      state: 'live',
      code: null,
      message: expect.any(String),
      retryAt: null,
    })
    const q = await r.waitFor(isQuote('BTCUSDT', 'stream'))
    expect(q.stale).toBe(false)
    r.abort()
    expect(await r.exit).toBe(0)
  })

  it("carries each market's session: Shanghai's timetable for cn:600519, always open for crypto", async () => {
    const before = Date.now()
    const r = watch(['cn:600519', 'crypto:BTCUSDT', '--duration', '1.5'])
    expect(await r.exit).toBe(0)
    const after = Date.now()
    const cn = r.lines().filter(isQuote('600519'))
    expect(cn.length).toBeGreaterThan(0)
    // The line's session is the one at the moment it was written, somewhere in [before, after].
    const possible = [sessionAt('cn', '600519', before), sessionAt('cn', '600519', after)]
    for (const q of cn) {
      expect(possible.map((s) => s.state)).toContain(q.session)
      expect(possible.map((s) => s.nextChange)).toContain(q.sessionNext)
      expect(q.sessionNext as number).toBeGreaterThan(before)
    }
    for (const q of r.lines().filter(isQuote('BTCUSDT'))) {
      expect(q).toMatchObject({ session: 'open', sessionNext: null })
    }
  })

  it('never prints a status line twice in a row, nor a "stopped" before it started', async () => {
    const r = watch(['crypto:BTCUSDT', '--duration', '1'])
    expect(await r.exit).toBe(0)
    const statuses = r.lines().filter((l) => l.type === 'status')
    expect(statuses[0]?.state).not.toBe('stopped')
    for (let i = 1; i < statuses.length; i++)
      expect(JSON.stringify(statuses[i])).not.toBe(JSON.stringify(statuses[i - 1]))
  })
})

describe('tickdesk watch: account-wide refusals', () => {
  it('stops with UNAUTHORIZED, exits 3 and sends nothing more after a 401', async () => {
    const r = watch(['crypto:BTCUSDT', '--duration', '10'], 'not-a-key')
    expect(await r.exit).toBe(3)
    expect(
      r
        .lines()
        .filter((l) => l.type === 'status')
        .at(-1),
    ).toMatchObject({
      state: 'stopped',
      code: 'UNAUTHORIZED',
    })
    expect(r.stderr()).toMatch(/401/)
    const spent = sim.stats().requests
    // One poll and one handshake at most reach the service before both see the 401.
    expect(spent).toBeLessThanOrEqual(3)
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(sim.stats().requests).toBe(spent)
  })

  it('exits 4 with SUBSCRIPTION_EXPIRED for an expired subscription', async () => {
    const r = watch(['crypto:BTCUSDT', '--duration', '10'], sim.keys.expired)
    expect(await r.exit).toBe(4)
    expect(r.lines()).toContainEqual(
      expect.objectContaining({ type: 'status', state: 'stopped', code: 'SUBSCRIPTION_EXPIRED' }),
    )
  })

  it.each(['NO_SUBSCRIPTION', 'IP_DENIED', 'GEO_DENIED'])(
    'exits 4 with %s when REST calls are refused with it',
    async (code) => {
      sim.faults.failNext({ status: 403, code, times: 100 })
      const r = watch(['crypto:BTCUSDT', '--duration', '10'])
      expect(await r.exit).toBe(4)
      expect(r.lines()).toContainEqual(
        expect.objectContaining({ type: 'status', state: 'stopped', code }),
      )
    },
  )

  it.each(['NO_SUBSCRIPTION', 'IP_DENIED', 'GEO_DENIED'])(
    'exits 4 with %s when only the stream handshake is refused with it',
    async (code) => {
      sim.faults.failNext({ status: 403, code, times: 100, path: STREAM_PATH })
      const r = watch(['crypto:BTCUSDT', '--duration', '10'])
      expect(await r.exit).toBe(4)
      expect(r.lines()).toContainEqual(
        expect.objectContaining({ type: 'status', state: 'stopped', code }),
      )
    },
  )
})

describe('tickdesk watch: transient trouble', () => {
  it('goes paused with RATE_LIMIT_EXCEEDED and a retryAt from Retry-After on 429s', async () => {
    sim.faults.failNext({ status: 429, code: 'RATE_LIMIT_EXCEEDED', retryAfterSec: 30, times: 100 })
    sim.faults.failNext({
      status: 429,
      code: 'RATE_LIMIT_EXCEEDED',
      retryAfterSec: 30,
      times: 100,
      path: STREAM_PATH,
    })
    const before = Date.now()
    const r = watch(['crypto:BTCUSDT'])
    const paused = await r.waitFor(isStatus('paused', 'RATE_LIMIT_EXCEEDED'))
    expect(paused.retryAt).toEqual(expect.any(Number))
    expect(paused.retryAt as number).toBeGreaterThanOrEqual(before + 25_000)
    r.abort()
    expect(await r.exit).toBe(0)
  })

  it('goes offline with NETWORK when the service goes down, and live again when it is back', async () => {
    const r = watch(['crypto:BTCUSDT'])
    await r.waitFor(isStatus('live'))
    await sim.faults.down()
    const offline = await r.waitFor(isStatus('offline'))
    expect(offline.code).toBe('NETWORK')
    const count = r.lines().length
    await sim.faults.up()
    await r.waitFor(isStatus('live'), 15_000, count)
    r.abort()
    expect(await r.exit).toBe(0)
  })
})

describe('tickdesk watch: per-symbol problems', () => {
  it('reports UNKNOWN_SYMBOL for one symbol while the others keep quoting', async () => {
    const r = watch(['crypto:NOPEUSDT', 'crypto:BTCUSDT'])
    const bad = await r.waitFor((l) => l.type === 'symbol-status')
    expect(bad).toEqual({
      type: 'symbol-status',
      market: 'crypto',
      symbol: 'NOPEUSDT',
      code: 'UNKNOWN_SYMBOL',
      message: expect.any(String),
    })
    const n = r.lines().length
    await r.waitFor(isQuote('BTCUSDT'), 10_000, n)
    expect(r.lines().some(isQuote('NOPEUSDT'))).toBe(false)
  })

  it('reports MARKET_NOT_ENABLED once for a market outside the plan and keeps quoting the rest', async () => {
    const r = watch(['fx:EURUSD', 'crypto:BTCUSDT', '--duration', '1.5'], sim.keys.cryptoOnly, {
      TICKDESK_PLAN: 'free',
    })
    expect(await r.exit).toBe(0)
    const problems = r.lines().filter((l) => l.type === 'symbol-status')
    expect(problems).toEqual([
      expect.objectContaining({ market: 'fx', symbol: 'EURUSD', code: 'MARKET_NOT_ENABLED' }),
    ])
    expect(r.lines().some(isQuote('BTCUSDT'))).toBe(true)
  })

  it('prices agri:ZC1! (from its kline endpoint) without a problem line', async () => {
    const r = watch(['agri:ZC1!'])
    const q = await r.waitFor(isQuote('ZC1!'))
    expect(q.market).toBe('agri')
    expect(q.last).toEqual(expect.any(Number))
    expect(r.lines().filter((l) => l.type === 'symbol-status')).toEqual([])
  })
})

describe.each(['typed', 'evented', 'compact'] as const)(
  'tickdesk watch on the %s dialect',
  (dialect) => {
    it('receives quotes with source "stream"', async () => {
      await sim.close()
      sim = await startSimulator({ seed: 3, tickIntervalMs: 50, dialect })
      const r = watch(['crypto:BTCUSDT', 'fx:EURUSD'])
      await r.waitFor(isQuote('BTCUSDT', 'stream'))
      await r.waitFor(isQuote('EURUSD', 'stream'))
    })
  },
)

describe('tickdesk watch: the quote cache', () => {
  it('saves quotes on exit and shows them first, as stale cache, when the service is down', async () => {
    const first = watch(['crypto:BTCUSDT', '--duration', '1'])
    expect(await first.exit).toBe(0)
    const lastSeen = first.lines().filter(isQuote('BTCUSDT')).at(-1)
    await sim.faults.down()
    const second = watch(['crypto:BTCUSDT', '--duration', '1'])
    expect(await second.exit).toBe(0)
    const firstLine = second.lines()[0]
    expect(firstLine).toMatchObject({
      type: 'quote',
      symbol: 'BTCUSDT',
      source: 'cache',
      stale: true,
    })
    expect(firstLine?.last).toBe(lastSeen?.last)
    expect(second.lines()).toContainEqual(
      expect.objectContaining({ type: 'status', state: 'offline', code: 'NETWORK' }),
    )
  })
})

describe('tickdesk watch: arguments', () => {
  it.each([
    [['crypto:BTCUSDT', '--bogus']],
    [['BTCUSDT']],
    [[]],
    [['crypto:BTCUSDT', '--duration', 'soon']],
    [['crypto:BTCUSDT', '--plan', 'platinum']],
  ])('exits 2 with usage on stderr and nothing on stdout for %j', async (args) => {
    const r = runCli(run, args, { env: serviceEnv(sim.url, sim.keys.pro, data.dir) })
    expect(await r.exit).toBe(2)
    expect(r.stderr()).toMatch(/Usage: tickdesk watch/)
    expect(r.stdout()).toBe('')
  })

  it('prints help and the version on stdout with exit 0', async () => {
    const help = runCli(run, ['--help'])
    expect(await help.exit).toBe(0)
    expect(help.stdout()).toMatch(/Usage: tickdesk watch/)
    const version = runCli(run, ['--version'])
    expect(await version.exit).toBe(0)
    expect(version.stdout()).toMatch(/^\d+\.\d+\.\d+\S*\n$/)
  })

  it('runs in demo mode without a base URL, with the banner on stderr and only JSON on stdout', async () => {
    const r = runCli(run, ['crypto:BTCUSDT', '--json', '--duration', '1'], {
      env: { TICKDESK_DATA_DIR: data.dir },
    })
    expect(await r.exit).toBe(0)
    expect(r.stderr()).toMatch(/Demo mode/)
    expect(r.lines().some(isQuote('BTCUSDT'))).toBe(true)
  })
})

describe('tickdesk watch stopped while it starts', () => {
  // SIGINT's handler is `once`: a Ctrl-C before watch listened was lost, and it ran on.
  it('exits 0 on a Ctrl-C that came before it was listening', async () => {
    const r = watch(['crypto:BTCUSDT'])
    r.abort()
    expect(await r.exit).toBe(0)
  }, 10_000)
})
