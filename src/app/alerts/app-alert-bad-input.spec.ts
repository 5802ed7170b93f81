import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openDataStores } from '../../core/persistence/stores'
import { startDemoService } from '../../sim'
import { createAppService, type AppService } from '../app-service'
import { memorySecretStore } from '../keys/memory-secret-store'

/** The app's addAlert command refuses bad input with a clear message and stores nothing. */

let app: AppService | null = null
afterEach(async () => {
  await app?.close()
  app = null
})

describe('addAlert: bad input', () => {
  it.each([
    [{ key: 'crypto:NOPE123', condition: { kind: 'above', price: 1 } }, /NOPE123 is not a symbol/],
    [{ key: 'BTCUSDT', condition: { kind: 'above', price: 1 } }, /write market:SYMBOL/],
    [
      { key: 'crypto:BTCUSDT', condition: { kind: 'above', price: 'lots' } },
      /price level must be a number/,
    ],
    [
      { key: 'crypto:BTCUSDT', condition: { kind: 'channel', low: 110, high: 100, on: 'enter' } },
      /lower bound must be below its upper bound/,
    ],
    [
      {
        key: 'futures:ES1!',
        condition: { kind: 'maCross', ma: 'ema', period: 2.5, interval: '15m' },
      },
      /period/,
    ],
    [
      { key: 'futures:ES1!', condition: { kind: 'maCross', ma: 'sma', period: 0, interval: '1h' } },
      /period/,
    ],
    [
      { key: '', listId: 'Nope', condition: { kind: 'movePct', pct: 3, minutes: 15 } },
      /no watchlist "Nope"/,
    ],
  ])('refuses %j', async (params, message) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tickdesk-app-bad-alert-'))
    app = await createAppService({
      dataDir,
      env: {},
      secretStore: memorySecretStore(),
      demo: () => startDemoService({ seed: 3 }),
    })
    const out = await app.invoke('addAlert', params)
    expect(out.ok).toBe(false)
    if (!out.ok) expect(out.error.message).toMatch(message)
    expect(app.rules).toEqual([])
    await app.close()
    app = null
    expect((await openDataStores(dataDir).alerts.load()).value.rules).toEqual([])
  })
})
