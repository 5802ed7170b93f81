import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { FakeClock } from '../../core/clock'
import { CAP_GRACE_MS } from '../../core/stream/stream-caps'
import { startSimulator, STREAM_PATH, type SimServer } from '../../sim'
import { runCli, serviceEnv, tempDataDir } from '../testing/cli-harness'
import { run } from './doctor'

let sim: SimServer
let data: Awaited<ReturnType<typeof tempDataDir>>

beforeEach(async () => {
  sim = await startSimulator({ seed: 4 })
  data = await tempDataDir()
})
afterEach(async () => {
  await sim.close()
  await data.remove()
})

function doctor(key: string, args: string[] = ['--json'], env: NodeJS.ProcessEnv = {}) {
  return runCli(run, args, { env: serviceEnv(sim.url, key, data.dir, env) })
}

describe('tickdesk doctor', () => {
  it('reports everything working on a pro key, spending one request per family plus one handshake', async () => {
    const r = doctor(sim.keys.pro, ['--json'], { TICKDESK_PLAN: 'pro' })
    expect(await r.exit).toBe(0)
    const [report, ...rest] = r.lines()
    expect(rest).toEqual([])
    expect(report).toMatchObject({ type: 'doctor', ok: true, plan: 'pro', notInPlan: [] })
    const names = (report!.checks as { name: string; ok: boolean }[]).map((c) => c.name)
    expect(names).toEqual(expect.arrayContaining(['key', 'stream', 'crypto', 'futures-kline']))
    expect((report!.checks as { ok: boolean }[]).every((c) => c.ok)).toBe(true)
    const stream = (report!.checks as { name: string; latencyMs: number | null }[]).find(
      (c) => c.name === 'stream',
    )
    expect(stream?.latencyMs).toEqual(expect.any(Number))
    expect(sim.stats().requests).toBe(report!.requestsSpent)
    expect(sim.stats().requests).toBeLessThanOrEqual(6)
  })

  it('lists the families a crypto-only key does not include, and still exits 0', async () => {
    const r = doctor(sim.keys.cryptoOnly)
    expect(await r.exit).toBe(0)
    const [report] = r.lines()
    expect(report!.notInPlan).toEqual(
      expect.arrayContaining(['multi', 'futures-kline', 'agri-kline']),
    )
    expect(report!.notInPlan).not.toContain('crypto')
    expect(report!.works).toEqual(expect.arrayContaining(['key', 'crypto', 'stream']))
  })

  it('says what the plan lacks in the text report too', async () => {
    const r = doctor(sim.keys.cryptoOnly, [], { NO_COLOR: '1' })
    expect(await r.exit).toBe(0)
    expect(r.stdout()).toMatch(/Not in your plan: .*futures-kline/)
    expect(r.stdout()).not.toContain(String.fromCharCode(27))
  })

  it('keeps the service code of a 403 seen only on the stream handshake and exits 4', async () => {
    sim.faults.failNext({ status: 403, code: 'IP_DENIED', path: STREAM_PATH, times: 5 })
    const r = doctor(sim.keys.pro, ['--json'], { TICKDESK_PLAN: 'pro' })
    expect(await r.exit).toBe(4)
    const [report] = r.lines()
    const stream = (report!.checks as { name: string; code: string | null }[]).find(
      (c) => c.name === 'stream',
    )
    expect(stream?.code).toBe('IP_DENIED')
  })

  it('exits 3 on a rejected key after a single request', async () => {
    const r = doctor('bad-key')
    expect(await r.exit).toBe(3)
    expect(r.lines()[0]).toMatchObject({ ok: false })
    expect(sim.stats().requests).toBe(1)
  })

  it('exits 4 on an expired subscription', async () => {
    const r = doctor(sim.keys.expired)
    expect(await r.exit).toBe(4)
  })

  it("waits on the injected clock: the stream's cap grace is its, not the system's", async () => {
    const clock = new FakeClock(Date.now())
    const r = runCli(run, ['--json'], {
      env: serviceEnv(sim.url, sim.keys.pro, data.dir, { TICKDESK_PLAN: 'pro' }),
      clock,
    })
    let done = false
    void r.exit.finally(() => (done = true))
    // Past the real grace: the handshake is open, and only the fake clock can end the wait.
    await new Promise((resolve) => setTimeout(resolve, CAP_GRACE_MS + 500))
    expect(done).toBe(false)
    clock.advance(CAP_GRACE_MS)
    expect(await r.exit).toBe(0)
    const stream = (r.lines()[0]!.checks as { name: string; ok: boolean }[]).find(
      (c) => c.name === 'stream',
    )
    expect(stream?.ok).toBe(true)
  })

  it('answers --help and --version, and exits 2 on an unknown flag', async () => {
    expect(await runCli(run, ['--help']).exit).toBe(0)
    const v = runCli(run, ['--version'])
    expect(await v.exit).toBe(0)
    expect(v.stdout()).toMatch(/^\d+\.\d+\.\d+/)
    const bad = runCli(run, ['--jsn'])
    expect(await bad.exit).toBe(2)
    expect(bad.stderr()).toMatch(/Usage: tickdesk doctor/)
    const stray = runCli(run, ['crypto:BTCUSDT'])
    expect(await stray.exit).toBe(2)
    expect(stray.stderr()).toMatch(/unexpected argument 'crypto:BTCUSDT'/)
  })
})
