import { mkdtempSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { FakeClock } from '../core/clock'
import type { FiredAlert } from '../shared/alerts/alert'
import type { PositionsFile } from '../shared/positions/position'
import { startDemoService } from '../sim'
import { createAppService, type AppService } from './app-service'
import { memorySecretStore } from './keys/memory-secret-store'
import {
  MAX_QUOTE_CURRENCIES,
  POSITION_HANDLERS,
  type PositionAccess,
} from './positions/position-commands'
import { webhookTarget, type WebhookOutcome } from './webhooks/webhook-sender'

/** What a page (or a receiver) feeds Tickdesk is bounded before it is kept. */

let app: AppService | null = null
let server: Server | null = null
afterEach(async () => {
  await app?.close()
  app = null
  server?.closeAllConnections()
  await new Promise((r) => (server ? server.close(r) : r(null)))
  server = null
})

/** The book behind the position commands, in memory: enough to count what it would save. */
function book(knows: (key: string) => boolean): PositionAccess & { saved: PositionsFile } {
  const access = {
    saved: {
      lots: [],
      baseCurrency: 'USD',
      currencies: {},
      pegStablecoins: false,
    } as PositionsFile,
    get positions() {
      return access.saved
    },
    setPositions: async (next: PositionsFile) => void (access.saved = next),
    knowsSymbol: knows,
    now: () => 0,
  }
  return access
}

describe('quote-currency overrides from the page', () => {
  it('refuses a symbol Tickdesk does not know and holds no lot of', async () => {
    const b = book((k) => k === 'us:AAPL')
    await expect(
      POSITION_HANDLERS.setQuoteCurrency(b, { key: 'us:NOSUCH1', currency: 'EUR' }),
    ).rejects.toMatchObject({ code: 'UNKNOWN_SYMBOL' })
    await POSITION_HANDLERS.setQuoteCurrency(b, { key: 'us:AAPL', currency: 'EUR' })
    expect(b.saved.currencies).toEqual({ 'us:AAPL': 'EUR' })
  })

  it(`keeps at most ${MAX_QUOTE_CURRENCIES} overrides, while changing or clearing one stays possible`, async () => {
    const b = book(() => true)
    for (let i = 0; i < MAX_QUOTE_CURRENCIES; i++)
      await POSITION_HANDLERS.setQuoteCurrency(b, { key: `us:S${i}`, currency: 'EUR' })
    await expect(
      POSITION_HANDLERS.setQuoteCurrency(b, { key: 'us:ONEMORE', currency: 'EUR' }),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT' })
    await POSITION_HANDLERS.setQuoteCurrency(b, { key: 'us:S0', currency: 'GBP' })
    await POSITION_HANDLERS.setQuoteCurrency(b, { key: 'us:S1', currency: null })
    expect(Object.keys(b.saved.currencies)).toHaveLength(MAX_QUOTE_CURRENCIES - 1)
  })
})

describe('CSV import', () => {
  it('never copies a huge cell into the notice it raises', async () => {
    app = await createAppService({
      dataDir: mkdtempSync(join(tmpdir(), 'tickdesk-bounds-')),
      env: {},
      secretStore: memorySecretStore(),
      demo: () => startDemoService({ seed: 4, tickIntervalMs: 1000 }),
    })
    const huge = `X${'y'.repeat(200_000)}`
    const outcome = await app.invoke('importWatchlists', {
      format: 'csv',
      text: `watchlist,symbol\nImported,crypto:BTCUSDT\nImported,${huge}\n`,
    })
    expect(outcome.ok).toBe(true)
    const notice = app.snapshot().notices.find((n) => n.message.startsWith('Skipped '))
    expect(notice).toBeDefined()
    expect(notice!.message.length).toBeLessThan(200)
  })
})

describe('a webhook receiver’s answer', () => {
  it('is read to its end but kept only to 4 KB: a 20 MB reply still counts as delivered', async () => {
    server = createServer((req, res) => {
      req.resume()
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'text/plain' })
        const chunk = Buffer.alloc(1024 * 1024, 'z')
        for (let i = 0; i < 20; i++) res.write(chunk)
        res.end()
      })
    })
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r))
    const { port } = server.address() as AddressInfo
    const outcomes: WebhookOutcome[] = []
    const target = webhookTarget({
      webhook: { id: 'w', url: `http://127.0.0.1:${port}/hook` },
      clock: new FakeClock(0),
      onOutcome: (_id, o) => outcomes.push(o),
      giveUpMs: 0,
      timeoutMs: 20_000,
    })
    const alert: FiredAlert = {
      id: 'f',
      ruleId: 'r',
      key: 'us:AAPL',
      message: 'AAPL above 1',
      price: 2,
      at: 0,
      whileAway: false,
      awaySince: null,
      quoteAt: null,
      firedBy: 'app',
    }
    await target.deliver(alert)
    expect(outcomes).toEqual([{ ok: true, at: 0 }])
  })
})
