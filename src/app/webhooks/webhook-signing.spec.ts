import { createHmac } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { FakeClock } from '../../core/clock'
import { openDataStores } from '../../core/persistence/stores'
import type { Webhook } from '../../shared/alerts/alert'
import type { AlertTarget } from '../alerts/alert-loop'
import type { WebhookSecrets } from '../secrets/webhook-secrets'
import { WebhookBook } from './webhook-book'
import { webhookTarget, type WebhookOutcome } from './webhook-sender'
import { firedAlert, webhookEntry } from '../testing/alert-fixtures'

/** URL policy at delivery, and HMAC-SHA256 signing checked by a receiver. */

interface Got {
  headers: IncomingHttpHeaders
  body: string
}
const servers: Server[] = []
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections()
    await new Promise((r) => s.close(r))
  }
})

async function receiver(): Promise<{ port: number; got: Got[] }> {
  const got: Got[] = []
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (c: Buffer) => (body += c.toString()))
    req.on('end', () => {
      got.push({ headers: req.headers, body })
      res.writeHead(200).end()
    })
  })
  servers.push(server)
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return { port: (server.address() as AddressInfo).port, got }
}

const alert = firedAlert()

const hook = (over: Partial<Webhook>): Webhook => webhookEntry(over)

function memorySecrets(entries: Record<string, string>): WebhookSecrets {
  return {
    get: async (id) => entries[id] ?? null,
    set: async (id, s) => void (entries[id] = s),
    clear: async (id) => void delete entries[id],
  }
}

/** The book's target for its one webhook, taken as the alert loop would take it. */
async function bookTarget(
  h: Webhook,
  secrets: WebhookSecrets | null,
): Promise<AlertTarget & { book: WebhookBook }> {
  const store = openDataStores(mkdtempSync(join(tmpdir(), 'tickdesk-sign-'))).webhooks
  await store.save([h])
  const targets: AlertTarget[] = []
  const book = new WebhookBook({
    store,
    clock: new FakeClock(alert.at + 5_000),
    loop: { addTarget: (t) => void targets.push(t), removeTarget: () => undefined },
    onProblem: () => undefined,
    secrets,
  })
  await book.sync()
  return Object.assign(targets[0]!, { book })
}

describe('webhook URL policy at delivery', () => {
  it('sends nothing to a URL with credentials, even on loopback and from a hand-edited file', async () => {
    const r = await receiver()
    const outcomes: WebhookOutcome[] = []
    const target = webhookTarget({
      webhook: { id: 'w', url: `http://user:pw@127.0.0.1:${r.port}/hook` },
      clock: new FakeClock(0),
      onOutcome: (_id, o) => outcomes.push(o),
      giveUpMs: 0,
    })
    await expect(target.deliver(alert)).rejects.toThrow(/user name or password/)
    expect(r.got).toEqual([])
    expect(outcomes[0]).toMatchObject({ ok: false, error: expect.stringMatching(/password/) })
  })
})

describe('signed webhooks', () => {
  it('signs timestamp + body with HMAC-SHA256 under the webhook’s secret, as SECURITY.md tells receivers to check', async () => {
    const r = await receiver()
    const secret = 'tdwh_spec-secret'
    const target = await bookTarget(
      hook({ url: `http://127.0.0.1:${r.port}/hook`, signed: true }),
      memorySecrets({ w1: secret }),
    )
    await target.deliver(alert)
    const { headers, body } = r.got[0]!
    const timestamp = String(headers['x-tickdesk-timestamp'])
    expect(timestamp).toBe(String(Math.floor((alert.at + 5_000) / 1000)))
    const expected = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')
    expect(headers['x-tickdesk-signature']).toBe(`sha256=${expected}`)
    expect(body).not.toContain(secret)
  })

  it('sends an unsigned webhook without a signature, and never sends a signed one unsigned', async () => {
    const r = await receiver()
    const plain = await bookTarget(hook({ url: `http://127.0.0.1:${r.port}/a` }), null)
    await plain.deliver(alert)
    expect(r.got[0]?.headers['x-tickdesk-signature']).toBeUndefined()
    const lost = await bookTarget(
      hook({ url: `http://127.0.0.1:${r.port}/b`, signed: true }),
      memorySecrets({}),
    )
    void Promise.resolve(lost.deliver(alert)).catch(() => undefined)
    await expect
      .poll(() => lost.book.views()[0]?.lastError)
      .toBe('signing secret not found in the OS keychain')
    await lost.book.close()
    expect(r.got).toHaveLength(1)
  })
})
