import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAppService } from '../../src/app/app-service'
import { memorySecretStore } from '../../src/app/keys/memory-secret-store'
import type { BridgeEvent, Snapshot } from '../../src/shared/bridge'
import { startSimulator, type SimServer } from '../../src/sim'
import { DEMO_KEYS } from '../../src/sim/plans-and-keys'
import { tempDir } from './harness'
import { addOnceAlerts, LEVEL, levelCrosser, startCli, type CliRun } from './once-alerts'

/**
 * One alert loop per data folder (issue 37, Deliver 1), with real processes on one folder:
 * `tickdesk alerts run` takes the alerts, a `tickdesk watch` started beside it says who runs them
 * and fires nothing; kill -9 the runner and watch takes over within 5 s (the dead runner's lock
 * does not block it) and fires the next crossing. Every crossing has one fire id across both.
 */

let sim: SimServer
beforeAll(async () => {
  sim = await startSimulator({ port: 0, seed: 31 })
})
afterAll(async () => {
  await sim.close()
})

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

describe('one alert loop per data folder', () => {
  it('watch beside alerts run says who runs the alerts, fires nothing, and takes over within 5 s of a kill -9', async () => {
    const dir = tempDir()
    const { cross, release } = levelCrosser(sim)
    release()
    const ids = await addOnceAlerts(dir, 'one', {
      BTCUSDT: LEVEL.BTCUSDT * 2,
      ETHUSDT: LEVEL.ETHUSDT * 2,
    })
    const runner = startCli(sim, dir, ['alerts', 'run', '--json'])
    let watch: CliRun | null = null
    try {
      await runner.waitFor(() => runner.stderr().includes('feed live'), 'the runner to be live')
      watch = startCli(sim, dir, ['watch', '--json', 'crypto:BTCUSDT', 'crypto:ETHUSDT'])
      const w = watch
      await w.waitFor(() => w.quotes.has('BTCUSDT'), 'watch quotes')
      expect(w.stderr()).toContain(
        `alerts are run by \`tickdesk alerts run\`, pid ${runner.child.pid}, since `,
      )

      cross('BTCUSDT', LEVEL.BTCUSDT * 2)
      await runner.waitFor(() => runner.alerts.length === 1, 'the runner to fire BTCUSDT')
      await sleep(1_500) // room for a second loop's fire to show
      expect(w.alerts).toEqual([])

      runner.child.kill('SIGKILL')
      await runner.exited
      const killed = Date.now()
      await w.waitFor(() => w.stderr().includes('running the alerts now'), 'the take-over', 10_000)
      const tookOver = Date.now() - killed
      console.log(`alerts: watch took over the alerts ${tookOver} ms after the runner's kill -9`)
      expect(tookOver).toBeLessThan(5_000)

      cross('ETHUSDT', LEVEL.ETHUSDT * 2)
      await w.waitFor(() => w.alerts.some((a) => a.ruleId === ids.get('ETHUSDT')), 'ETH fire')
      await sleep(500)
      const all = [...runner.alerts, ...w.alerts]
      for (const symbol of ['BTCUSDT', 'ETHUSDT']) {
        const lines = all.filter((a) => a.ruleId === ids.get(symbol) && !a.replayed)
        expect(lines, `${symbol}: ${JSON.stringify(all)}`).toHaveLength(1)
      }
    } finally {
      release()
      runner.child.kill('SIGKILL')
      watch?.child.kill('SIGTERM')
      await Promise.all([runner.exited, watch?.exited])
    }
  }, 90_000)

  it('the app beside alerts run says who runs the alerts, fires nothing, and takes over within 5 s of a kill -9', async () => {
    const dir = tempDir()
    const { cross, release } = levelCrosser(sim)
    release()
    const ids = await addOnceAlerts(dir, 'app', {
      SOLUSDT: LEVEL.SOLUSDT * 2,
      BNBUSDT: LEVEL.BNBUSDT * 2,
    })
    const runner = startCli(sim, dir, ['alerts', 'run', '--json'])
    await runner.waitFor(() => runner.stderr().includes('feed live'), 'the runner to be live')
    const app = await createAppService({
      dataDir: dir,
      env: {
        TICKDESK_BASE_URL: `http://127.0.0.1:${sim.port}`,
        TICKDESK_API_KEY: DEMO_KEYS.pro,
        TICKDESK_PLAN: 'pro',
      },
      secretStore: memorySecretStore(),
      demo: () => Promise.reject(new Error('no demo here')),
    })
    try {
      app.announceOwedAlerts()
      const fired: string[] = []
      app.subscribe(
        (e: BridgeEvent) => void (e.type === 'alertFired' && fired.push(e.alert.ruleId)),
      )
      const notices = async (): Promise<string> =>
        JSON.stringify(
          ((await app.invoke('getSnapshot', {})) as { ok: true; result: Snapshot }).result.notices,
        )
      expect(await notices()).toContain(
        `alerts are run by \`tickdesk alerts run\`, pid ${runner.child.pid}, since `,
      )
      cross('SOLUSDT', LEVEL.SOLUSDT * 2)
      await runner.waitFor(() => runner.alerts.length === 1, 'the runner to fire SOLUSDT')
      await sleep(1_500)
      expect(fired).toEqual([])

      runner.child.kill('SIGKILL')
      await runner.exited
      const killed = Date.now()
      await expect.poll(notices, { timeout: 10_000, interval: 50 }).toContain('now runs the alerts')
      const tookOver = Date.now() - killed
      console.log(`alerts: the app took over the alerts ${tookOver} ms after the runner's kill -9`)
      expect(tookOver).toBeLessThan(5_000)
      cross('BNBUSDT', LEVEL.BNBUSDT * 2)
      await expect.poll(() => fired, { timeout: 15_000 }).toEqual([ids.get('BNBUSDT')])
    } finally {
      release()
      runner.child.kill('SIGKILL')
      await runner.exited
      await app.close()
    }
  }, 90_000)
})
