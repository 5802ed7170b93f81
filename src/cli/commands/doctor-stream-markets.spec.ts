import { afterEach, describe, expect, it } from 'vitest'
import { startSimulator, type ServiceBehaviour, type SimServer } from '../../sim'
import { runCli, serviceEnv, tempDataDir } from '../testing/cli-harness'
import { run } from './doctor'
import { clockAt, WEEKDAY_AFTERNOON_UTC } from '../../util/testing/clock-at'

/**
 * `tickdesk doctor` probes the stream per market on its one socket: pushes seen,
 * acknowledged but silent, or refused with the frame's code and message; the name that worked;
 * non-zero exit when a market the plan includes cannot stream; the request id of a failed call.
 */
let sim: SimServer | null = null
let data: Awaited<ReturnType<typeof tempDataDir>> | null = null
afterEach(async () => {
  await sim?.close()
  await data?.remove()
  sim = data = null
})

type Check = { name: string; ok: boolean; code: string | null; message: string; requestId?: string }

async function doctor(
  behaviour: Partial<ServiceBehaviour>,
  env: NodeJS.ProcessEnv = {},
): Promise<{ exit: number; checks: Check[]; sim: SimServer }> {
  sim = await startSimulator({ seed: 4, tickIntervalMs: 200, behaviour })
  data = await tempDataDir()
  const r = runCli(run, ['--json'], {
    env: serviceEnv(sim.url, sim.keys.pro, data.dir, { TICKDESK_PLAN: 'pro', ...env }),
    // A market outside its session is not judged silent: FX must be trading whatever the day.
    clock: clockAt(WEEKDAY_AFTERNOON_UTC),
  })
  const exit = await r.exit
  const [report] = r.lines()
  return { exit, checks: report!.checks as Check[], sim }
}

describe('tickdesk doctor, the stream per market', () => {
  it('finds the names a service refusing ours streams under, says what each try met, and exits 0', async () => {
    const { exit, checks, sim: s } = await doctor({ marketNames: 'service' })
    const byName = Object.fromEntries(checks.map((c) => [c.name, c]))
    expect(byName['stream crypto']).toMatchObject({ ok: true })
    expect(byName['stream crypto']?.message).toMatch(
      /pushes seen under "spot" \(before: "crypto" refused \(INVALID_REQUEST: unknown market crypto\)/,
    )
    expect(byName['stream usdt-futures']?.message).toContain('pushes seen under "futures_usdt"')
    // FX: the service's own REST tag (forex) is tried before any spelling.
    expect(byName['stream fx']?.message).toContain('pushes seen under "forex"')
    expect(exit).toBe(0)
    expect(s.stats().wsHandshakes).toBe(1)
  }, 60_000)

  it('names the market that cannot stream and exits non-zero', async () => {
    // The trader's setting is the only name tried: acked, then nothing.
    const { exit, checks } = await doctor(
      { marketNames: 'service', unknownMarket: 'silent' },
      { TICKDESK_STREAM_MARKETS: 'fx=fx_spot' },
    )
    const fx = checks.find((c) => c.name === 'stream fx')
    expect(fx).toMatchObject({ ok: false, code: 'ACKED_SILENT' })
    expect(fx?.message).toMatch(/cannot stream.*"fx_spot" acknowledged but silent/)
    expect(exit).not.toBe(0)
  }, 60_000)

  it('quotes the X-Request-Id of a failed REST call', async () => {
    sim = await startSimulator({ seed: 4 })
    data = await tempDataDir()
    sim.faults.failNext({
      status: 502,
      code: 'UPSTREAM_UNAVAILABLE',
      path: '/api/v1/market/futures/quote',
    })
    const r = runCli(run, ['--json'], {
      env: serviceEnv(sim.url, sim.keys.pro, data.dir, { TICKDESK_PLAN: 'pro' }),
    })
    await r.exit
    const check = (r.lines()[0]!.checks as Check[]).find((c) => c.name === 'usdt-futures')
    expect(check?.requestId).toEqual(expect.any(String))
    expect(check?.message).toContain(`request id ${check?.requestId} - quote it to your provider`)
  }, 30_000)
})
