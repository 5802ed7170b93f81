import { mkdtempSync, rmSync } from 'node:fs'
import type { Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { runCli } from '../testing/cli-harness'
import { run as alerts } from './alerts'
import { openDataStores } from '../../core/persistence/stores'
import type { Webhook } from '../../shared/alerts/alert'
import type { Snapshot } from '../../shared/bridge'
import { startSimulator, type SimServer } from '../../sim'
import type { AppService } from '../../app/app-service'
import { appOnSim, fireSolAbove400 } from '../../app/testing/app-on-sim'
import { freePort, listenForFires } from '../../app/testing/webhook-receiver'
import { webhookEntry } from '../../app/testing/alert-fixtures'

/**
 * A data folder from before the https rule holds a webhook with plain http
 * to another host. It is not deleted and nothing is sent to it: it is shown disabled with why, in
 * the app and in `tickdesk alerts webhook list`, and what fires stays owed to it, listed as
 * undelivered, as the outbox lists a webhook that gave up. A loopback webhook beside it (the
 * control) gets the same fire. The remote host is a .invalid name: an attempt would fail as
 * "host not found" and count a failure, so none shows that none was made.
 */
/** The words the trader reads, in the app and the CLI alike. */
const PLAIN_HTTP_DISABLED = 'plain http to a remote host is no longer allowed; re-add it with https'
const REMOTE = 'http://alerts.tickdesk-remote.invalid/T000/SECRET-PATH'

let app: AppService | null = null
let sim: SimServer | null = null
let receiver: Server | null = null
let dataDir: string | null = null
afterEach(async () => {
  await app?.close()
  await sim?.close()
  receiver?.closeAllConnections()
  receiver?.close()
  if (dataDir) rmSync(dataDir, { recursive: true, force: true })
  app = sim = receiver = dataDir = null
})

const hook = (id: string, url: string): Webhook => webhookEntry({ id, url })

describe('a stored webhook with plain http to a remote host', () => {
  it('is kept and shown disabled with why, is sent nothing, and the fire stays owed to it as undelivered', async () => {
    sim = await startSimulator({ port: 0, seed: 5 })
    const dir = (dataDir = mkdtempSync(join(tmpdir(), 'tickdesk-hook-disabled-')))
    const port = await freePort()
    const got: string[] = []
    receiver = await listenForFires(port, (id) => got.push(id))
    await openDataStores(dir).webhooks.save([
      hook('old', REMOTE),
      hook('local', `http://127.0.0.1:${port}/hook`),
    ])
    app = await appOnSim(sim, dir)
    const running = app
    const snapshot = async (): Promise<Snapshot> =>
      ((await running.invoke('getSnapshot', {})) as { ok: true; result: Snapshot }).result

    const loaded = await snapshot()
    expect(loaded.webhooks.map((w) => [w.id, w.disabled])).toEqual([
      ['old', PLAIN_HTTP_DISABLED],
      ['local', undefined],
    ])
    expect(loaded.notices.find((n) => n.code === 'WEBHOOK_DISABLED')?.message).toContain(
      `Webhook old (alerts.tickdesk-remote.invalid) is disabled: ${PLAIN_HTTP_DISABLED}`,
    )

    const fireId = await fireSolAbove400(app, sim)
    await expect.poll(() => got, { timeout: 10_000 }).toContain(fireId)
    await expect
      .poll(async () => (await snapshot()).undelivered ?? [], { timeout: 10_000 })
      .toEqual([expect.objectContaining({ fireId, to: 'webhook:old', why: PLAIN_HTTP_DISABLED })])
    const after = await snapshot()
    expect(after.webhooks[0]).toMatchObject({ id: 'old', failures: 0, lastError: null })
    // Nothing was handed to it, so a delivery once it is fixed would be no replay.
    expect(after.alertHistory.find((a) => a.id === fireId)?.replayed).toBeFalsy()

    await app.close()
    app = null
    expect((await openDataStores(dir).webhooks.load()).value.map((w) => w.url)).toEqual([
      REMOTE,
      `http://127.0.0.1:${port}/hook`,
    ])
    const env = { TICKDESK_DATA_DIR: dir }
    const list = runCli(alerts, ['webhook', 'list'], { env })
    expect(await list.exit).toBe(0)
    expect(list.stdout()).toContain(
      `webhook old  json  http://alerts.tickdesk-remote.invalid/…  disabled: ${PLAIN_HTTP_DISABLED}\n`,
    )
    expect(list.stdout()).toMatch(
      /webhook local {2}json {2}http:\/\/127\.0\.0\.1:\d+\/… {2}0 failed/,
    )
    expect(list.stdout()).not.toContain('SECRET')
    const json = runCli(alerts, ['webhook', 'list', '--json'], { env })
    expect(await json.exit).toBe(0)
    expect(json.lines()[0]).toMatchObject({
      type: 'webhook',
      id: 'old',
      disabled: PLAIN_HTTP_DISABLED,
    })
    const owed = runCli(alerts, ['list'], { env })
    expect(await owed.exit).toBe(0)
    expect(owed.stdout()).toContain(`to webhook:old: ${PLAIN_HTTP_DISABLED}`)
  }, 40_000)

  it('fixed in place (same id) while the app runs, gets what it was owed, not replayed', async () => {
    sim = await startSimulator({ port: 0, seed: 5 })
    const dir = (dataDir = mkdtempSync(join(tmpdir(), 'tickdesk-hook-fixed-')))
    const port = await freePort()
    const got: Array<{ id: string; replayed: boolean | undefined }> = []
    receiver = await listenForFires(port, (id, replayed) => got.push({ id, replayed }))
    await openDataStores(dir).webhooks.save([hook('old', REMOTE)])
    app = await appOnSim(sim, dir)
    app.announceOwedAlerts() // as the hosts do once their windows can show a toast
    const running = app
    const snapshot = async (): Promise<Snapshot> =>
      ((await running.invoke('getSnapshot', {})) as { ok: true; result: Snapshot }).result
    const fireId = await fireSolAbove400(app, sim)
    await expect
      .poll(async () => (await snapshot()).undelivered ?? [], { timeout: 10_000 })
      .toEqual([expect.objectContaining({ fireId, to: 'webhook:old' })])

    // The trader (or `tickdesk`) fixes the URL in webhooks.json; the app reads it in.
    await openDataStores(dir).webhooks.save([hook('old', `http://127.0.0.1:${port}/hook`)])
    await app.checkOutsideEdits()
    await expect.poll(() => got, { timeout: 10_000 }).toEqual([{ id: fireId, replayed: false }])
    await expect.poll(async () => (await snapshot()).undelivered ?? []).toEqual([])
    expect((await snapshot()).webhooks[0]?.disabled).toBeUndefined()
  }, 40_000)
})
