import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startSimulator, type SimServer } from '../../sim'
import { runCli, serviceEnv, tempDataDir } from '../testing/cli-harness'
import { run } from './candles'

const BAR_KEYS = ['close', 'closeTime', 'high', 'low', 'open', 'openTime', 'volume']
let sim: SimServer | null = null
let data: Awaited<ReturnType<typeof tempDataDir>>

beforeEach(async () => {
  data = await tempDataDir()
})
afterEach(async () => {
  await sim?.close()
  sim = null
  await data.remove()
})

describe.each(['typed', 'evented', 'compact'] as const)(
  'tickdesk candles on the %s dialect',
  (dialect) => {
    it('prints one candles line with 5 hourly bars of numbers and epoch-ms times for futures:ES1!', async () => {
      sim = await startSimulator({ seed: 2, dialect })
      const r = runCli(run, ['futures:ES1!', '--interval', '1h', '--limit', '5', '--json'], {
        env: serviceEnv(sim.url, sim.keys.pro, data.dir),
      })
      expect(await r.exit).toBe(0)
      const lines = r.lines()
      expect(lines).toHaveLength(1)
      const [line] = lines
      expect(Object.keys(line!).sort()).toEqual(['bars', 'interval', 'market', 'symbol', 'type'])
      expect(line).toMatchObject({
        type: 'candles',
        market: 'futures',
        symbol: 'ES1!',
        interval: '1h',
      })
      const bars = line!.bars as Record<string, unknown>[]
      expect(bars).toHaveLength(5)
      const now = Date.now()
      for (const b of bars) {
        expect(Object.keys(b).sort()).toEqual(BAR_KEYS)
        for (const k of BAR_KEYS) expect(typeof b[k], k).toBe('number')
        // Epoch ms, not seconds and not ISO strings: within the last few days.
        expect(b.openTime as number).toBeGreaterThan(now - 10 * 86_400_000)
        expect(b.openTime as number).toBeLessThanOrEqual(now)
        expect(b.closeTime as number).toBeGreaterThan(b.openTime as number)
        expect((b.openTime as number) % 3_600_000).toBe(0)
      }
      const opens = bars.map((b) => b.openTime as number)
      expect(opens).toEqual([...opens].sort((a, b) => a - b))
    })
  },
)

describe('tickdesk candles: arguments and errors', () => {
  it.each([
    [['futures:ES1!', '--interval', '7m']],
    [['futures:ES1!', '--limit', '0']],
    [['futures:ES1!', '--limit', '5001']],
    [['futures:ES1!', '--limit', 'many']],
    [['futures:ES1!', '--bogus']],
    [['ES1!']],
    [[]],
  ])('exits 2 with usage on stderr for %j', async (args) => {
    const r = runCli(run, args, { env: { TICKDESK_DATA_DIR: data.dir } })
    expect(await r.exit).toBe(2)
    expect(r.stderr()).toMatch(/Usage: tickdesk candles/)
    expect(r.stdout()).toBe('')
  })

  it('exits 3 with the code on stderr when the key is rejected', async () => {
    sim = await startSimulator({ seed: 2 })
    const r = runCli(run, ['futures:ES1!', '--json'], {
      env: serviceEnv(sim.url, 'nope', data.dir),
    })
    expect(await r.exit).toBe(3)
    expect(r.stderr()).toMatch(/UNAUTHORIZED/)
    expect(r.stdout()).toBe('')
  })

  it('answers --help and --version on stdout with exit 0', async () => {
    const help = runCli(run, ['--help'])
    expect(await help.exit).toBe(0)
    expect(help.stdout()).toMatch(/--interval I/)
    const version = runCli(run, ['--version'])
    expect(await version.exit).toBe(0)
    expect(version.stdout()).toMatch(/^\d+\.\d+\.\d+\S*\n$/)
  })
})

describe('tickdesk candles --auth bearer', () => {
  it('sends the key as Authorization: Bearer, and not as X-API-Key', async () => {
    const { createServer } = await import('node:http')
    const seen: Array<Record<string, string | string[] | undefined>> = []
    const server = createServer((req, res) => {
      seen.push(req.headers)
      res
        .writeHead(401, { 'content-type': 'application/json' })
        .end('{"succ":false,"code":"UNAUTHORIZED","msg":"bad key"}')
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
    try {
      const port = (server.address() as { port: number }).port
      const r = runCli(run, ['futures:ES1!', '--json', '--auth', 'bearer'], {
        env: serviceEnv(`http://127.0.0.1:${port}`, 'k-123456789', data.dir),
      })
      expect(await r.exit).toBe(3)
      expect(seen.length).toBeGreaterThan(0)
      for (const h of seen) {
        expect(h['authorization']).toBe('Bearer k-123456789')
        expect(h['x-api-key']).toBeUndefined()
      }
    } finally {
      await new Promise<void>((r) => server.close(() => r()))
    }
  })
})
