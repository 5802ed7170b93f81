import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openDataStores } from '../../core/persistence/stores'
import { SnapshotSchema, type BridgeEvent } from '../../shared/bridge'
import { startDemoService } from '../../sim'
import { createAppService, type AppService } from '../app-service'
import { memorySecretStore } from '../keys/memory-secret-store'

/** Webhook URLs (bearer secrets) never cross the bridge; a view does. */

const URL_WITH_TOKEN = 'https://hooks.slack.com/services/T000/B000/XXXXSECRETXXXX?token=QSECRET'

let app: AppService | null = null
afterEach(async () => {
  await app?.close()
  app = null
})

describe('webhooks on the bridge', () => {
  it('sends the page each webhook’s id, host, kind and record, and no part of its URL beyond the host', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tickdesk-hookview-'))
    await openDataStores(dataDir).webhooks.save([
      {
        id: 'w1',
        url: URL_WITH_TOKEN,
        addedAt: 0,
        failures: 2,
        lastError: 'HTTP 500',
        lastDeliveredAt: null,
        signed: false,
      },
    ])
    app = await createAppService({
      dataDir,
      env: {},
      secretStore: memorySecretStore(),
      demo: () => startDemoService({ seed: 3, tickIntervalMs: 1000 }),
    })
    const events: BridgeEvent[] = []
    app.subscribe((e) => events.push(e))
    const outcome = await app.invoke('getSnapshot', {})
    expect(outcome.ok).toBe(true)
    const snap = (outcome as { result: unknown }).result as { webhooks: unknown[] }
    expect(snap.webhooks).toEqual([
      {
        id: 'w1',
        host: 'hooks.slack.com',
        kind: 'json',
        failures: 2,
        lastError: 'HTTP 500',
        lastDeliveredAt: null,
        signed: false,
      },
    ])
    await app.invoke('addAlert', {
      key: 'crypto:BTCUSDT',
      condition: { kind: 'above', price: 1e9 },
    })
    expect(events.some((e) => e.type === 'alerts')).toBe(true)
    const wire = JSON.stringify(snap) + JSON.stringify(events)
    expect(wire).not.toMatch(/SECRET|\/services\//)
  })

  it('refuses, on the receiving side, a snapshot whose webhook carries a url', () => {
    const hook = {
      id: 'w',
      host: 'h',
      kind: 'json',
      failures: 0,
      lastError: null,
      lastDeliveredAt: null,
      signed: false,
    }
    const base = SnapshotSchema.safeParse({ webhooks: [hook] })
    const withUrl = SnapshotSchema.safeParse({ webhooks: [{ ...hook, url: URL_WITH_TOKEN }] })
    // The rest of the snapshot is irrelevant here: compare the webhook issues only.
    const hookIssues = (r: typeof base): unknown[] =>
      r.success ? [] : r.error.issues.filter((i) => i.path[0] === 'webhooks')
    expect(hookIssues(base)).toEqual([])
    expect(hookIssues(withUrl)).not.toEqual([])
  })
})
