import { afterEach, describe, expect, it } from 'vitest'
import { createAppService } from '../../src/app/app-service'
import { memorySecretStore } from '../../src/app/keys/memory-secret-store'
import type { DoctorReport } from '../../src/shared/bridge'
import { startDemoService, startSimulator } from '../../src/sim'
import { mustOpen } from '../../src/sim/testing/spec-client'
import { startSession, tempDir, type Session } from './harness'

/**
 * Settings -> Test connection runs through the running engine: its budget and the
 * user's RPM override, its REST client, and the live state of its one socket. It never opens a
 * socket of its own: on the Free plan (1 connection) that would be the service's second.
 */

let s: Session | null = null
afterEach(async () => {
  await s?.close()
  s = null
})

async function testConnection(session: Session): Promise<DoctorReport> {
  let report: DoctorReport | null = null
  void session.engine.testConnection().then((r) => (report = r))
  await session.until(() => report !== null, 5 * 60_000, 500)
  if (report === null) throw new Error('the connection test never finished')
  return report
}

describe('the in-app connection test', () => {
  it('opens no second socket on the Free plan and spends from the engine budget', async () => {
    s = await startSession({ plan: 'free', key: (sim) => sim.keys.free, rpm: 12 })
    const session = s
    expect(await session.until(() => session.engine.status().state === 'live')).toBe(true)
    const handshakes = session.sim.stats().wsHandshakes
    const report = await testConnection(session)
    const stats = session.sim.stats()
    expect(stats.wsHandshakes).toBe(handshakes)
    expect(stats.maxWsOpen).toBe(1)
    expect(report.checks.find((c) => c.name === 'stream')).toMatchObject({ ok: true })
    expect(report.ok).toBe(true)
    // The user's override of 12 RPM (10 governed) holds for the probes too.
    expect(session.maxPerMinute()).toBeLessThanOrEqual(10)
    expect(stats.http429).toBe(0)
  })

  it('does not call a stream refused with WS_CONN_LIMIT after the upgrade OK', async () => {
    s = await startSession({ plan: 'free', key: (sim) => sim.keys.free })
    const session = s
    expect(await session.until(() => session.engine.status().state === 'live')).toBe(true)
    // Another app takes the Free plan's one connection while ours reconnects.
    session.sim.faults.dropSockets()
    const other = await mustOpen(session.sim.streamUrl, session.sim.keys.free)
    await session.run(120_000, 1_000)
    const report = await testConnection(session)
    other.ws.close()
    expect(report.checks.find((c) => c.name === 'stream')).toMatchObject({
      ok: false,
      code: 'WS_CONN_LIMIT',
    })
    expect(report.ok).toBe(false)
  })
})

describe('Settings -> Test connection through the app', () => {
  it('never raises the service count of sockets on the Free plan, even for a moment', async () => {
    const sim = await startSimulator({ seed: 5, tickIntervalMs: 100 })
    const app = await createAppService({
      dataDir: tempDir(),
      env: { TICKDESK_BASE_URL: sim.url, TICKDESK_PLAN: 'free' },
      secretStore: memorySecretStore(sim.keys.free),
      demo: () => startDemoService(),
    })
    try {
      await expect.poll(() => app.feed.engine.status().state, { timeout: 15_000 }).toBe('live')
      const out = await app.invoke('testConnection', {})
      expect(out.ok).toBe(true)
      const report = (out as { result: DoctorReport }).result
      expect(report.checks.find((c) => c.name === 'stream')).toMatchObject({ ok: true })
      expect(sim.stats().maxWsOpen).toBe(1)
      expect(sim.stats().wsHandshakes).toBe(1)
    } finally {
      await app.close()
      await sim.close()
    }
  })
})
