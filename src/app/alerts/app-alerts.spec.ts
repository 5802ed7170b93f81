import { mkdtempSync } from 'node:fs'
import type { Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openDataStores } from '../../core/persistence/stores'
import type { Snapshot } from '../../shared/bridge'
import { startDemoService, startSimulator, type SimServer } from '../../sim'
import { createAppService, type AppService } from '../app-service'
import { memorySecretStore } from '../keys/memory-secret-store'
import { appOnSim, fireSolAbove400 } from '../testing/app-on-sim'
import { freePort, listenForFires } from '../testing/webhook-receiver'

/**
 * The app's alerts end to end on loopback: the simulator crosses a level at a moment the test
 * picks, the app fires, and a webhook receiver (127.0.0.1) that was down when it fired gets the
 * fire once it is back, once.
 */

let app: AppService | null = null
let sim: SimServer | null = null
let receiver: Server | null = null
afterEach(async () => {
  await app?.close()
  await sim?.close()
  receiver?.closeAllConnections()
  receiver?.close()
  app = sim = receiver = null
})

const listen = (port: number, got: string[]): Promise<Server> =>
  listenForFires(port, (fireId) => {
    if (!got.includes(fireId)) got.push(fireId) // a receiver de-duplicates by fire id
    got.push(`raw:${fireId}`)
  })

describe('alerts in the app', () => {
  it('POSTs a fire to a webhook that was down when it fired, once, and shows its failure count', async () => {
    sim = await startSimulator({ port: 0, seed: 5 })
    const dataDir = mkdtempSync(join(tmpdir(), 'tickdesk-app-alerts-'))
    const port = await freePort()
    await openDataStores(dataDir).webhooks.save([
      {
        id: 'w1',
        url: `http://127.0.0.1:${port}/hook`,
        addedAt: 0,
        failures: 0,
        lastError: null,
        lastDeliveredAt: null,
        signed: false,
      },
    ])
    app = await appOnSim(sim, dataDir)
    const fireId = await fireSolAbove400(app, sim)
    // Down for 3 s after the fire: the retries (1 s, 2 s …) fail and are counted.
    await new Promise((r) => setTimeout(r, 3_000))
    const got: string[] = []
    receiver = await listen(port, got)
    await expect
      .poll(() => got.filter((g) => !g.startsWith('raw:')).length, { timeout: 15_000 })
      .toBe(1)
    expect(got[0]).toBe(fireId)
    const running = app
    const hook = async (): Promise<Snapshot['webhooks'][number] | undefined> =>
      ((await running.invoke('getSnapshot', {})) as { ok: true; result: Snapshot }).result
        .webhooks[0]
    // The receiver holds the body before the app has read its answer: the delivery is marked
    // when that answer arrives, a moment later (under load, after the poll above has returned).
    await expect.poll(async () => (await hook())?.lastError, { timeout: 5_000 }).toBeNull()
    expect((await hook())?.failures).toBeGreaterThanOrEqual(2)
    await new Promise((r) => setTimeout(r, 1_000))
    expect(got.filter((g) => g.startsWith('raw:'))).toHaveLength(1)
  }, 40_000)

  it('says at start what the alerts runner fired while the app was closed', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tickdesk-app-alerts-'))
    const base = {
      ruleId: 'r',
      key: 'crypto:BTCUSDT',
      price: 1,
      whileAway: false,
      awaySince: null,
      quoteAt: null,
    }
    await openDataStores(dataDir).alertHistory.save([
      { ...base, id: 'a1', message: 'by the app', at: 1_000, firedBy: 'app' },
      { ...base, id: 'a2', message: 'by the runner', at: 2_000, firedBy: 'runner' },
      { ...base, id: 'a3', message: 'by the runner', at: 3_000, firedBy: 'runner' },
    ])
    app = await createAppService({
      dataDir,
      env: {},
      secretStore: memorySecretStore(),
      demo: () => startDemoService({ seed: 3 }),
    })
    const snap = (await app.invoke('getSnapshot', {})) as { ok: true; result: Snapshot }
    expect(snap.result.notices.map((n) => n.message)).toContain(
      'While Tickdesk was closed, the alerts runner fired 2 alerts: see Alerts.',
    )
  })
})
