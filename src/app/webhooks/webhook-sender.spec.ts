import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { systemClock } from '../../core/clock'
import { webhookTarget, type WebhookOutcome } from './webhook-sender'
import { firedAlert } from '../testing/alert-fixtures'

/** A receiver on loopback that answers as each test says, and remembers what it got. */
interface Receiver {
  url: string
  got: { headers: IncomingMessage['headers']; body: Record<string, unknown> }[]
  /** 'hang': never answers; 'late': 200 after 400 ms. */
  answer: (n: number) => number | 'hang' | 'late'
  close(): Promise<void>
}

const servers: Server[] = []
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections()
    await new Promise((r) => s.close(r))
  }
})

async function receiver(answer: Receiver['answer'], port = 0): Promise<Receiver> {
  const r: Receiver = { url: '', got: [], answer, close: async () => undefined }
  const server = createServer((req, res) => {
    let text = ''
    req.on('data', (c: Buffer) => (text += c.toString()))
    req.on('end', () => {
      r.got.push({ headers: req.headers, body: JSON.parse(text) as Record<string, unknown> })
      const status = r.answer(r.got.length)
      if (status === 'hang') return
      if (status === 'late') return void setTimeout(() => res.writeHead(200).end(), 400)
      res.writeHead(
        status,
        status >= 300 && status < 400 ? { location: 'http://127.0.0.1:1/' } : {},
      )
      res.end()
    })
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  r.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook?token=secret`
  r.close = async () => {
    server.closeAllConnections()
    await new Promise((res) => server.close(res))
  }
  return r
}

const alert = firedAlert({
  id: 'fire-1',
  message: 'BTCUSDT crossed above 65,000 (65,012.5)',
  price: 65_012.5,
  quoteAt: 1_699_999_999_500,
  firedBy: 'runner',
})

function target(
  url: string,
  outcomes: WebhookOutcome[],
  over: { timeoutMs?: number; giveUpMs?: number } = {},
) {
  return webhookTarget({
    webhook: { id: 'w1', url },
    clock: systemClock,
    onOutcome: (_id, o) => void outcomes.push(o),
    firstRetryMs: 20,
    ...over,
  })
}

describe('webhook delivery', () => {
  it('POSTs the fire as JSON with its id (body and Idempotency-Key), and nothing about the account', async () => {
    const r = await receiver(() => 204)
    const outcomes: WebhookOutcome[] = []
    await target(r.url, outcomes).deliver(alert)
    expect(r.got).toHaveLength(1)
    const [{ headers, body }] = r.got as [Receiver['got'][number]]
    expect(headers['idempotency-key']).toBe('fire-1')
    expect(headers['content-type']).toBe('application/json')
    expect(body).toMatchObject({
      type: 'alert',
      id: 'fire-1',
      replayed: false,
      symbol: 'BTCUSDT',
      market: 'crypto',
      price: 65_012.5,
      quoteAt: 1_699_999_999_500,
    })
    expect(JSON.stringify(r.got)).not.toMatch(/apiKey|api-key|authorization/i)
    expect(outcomes).toEqual([{ ok: true, at: expect.any(Number) }])
  })

  it('retries a receiver that answers 500 and counts each failed attempt', async () => {
    const r = await receiver((n) => (n <= 2 ? 500 : 200))
    const outcomes: WebhookOutcome[] = []
    await target(r.url, outcomes).deliver(alert)
    expect(r.got.map((g) => g.body.id)).toEqual(['fire-1', 'fire-1', 'fire-1'])
    expect(outcomes.map((o) => (o.ok ? 'ok' : o.error))).toEqual(['HTTP 500', 'HTTP 500', 'ok'])
  })

  it('times out a receiver that never answers, says so without the URL, and tries again', async () => {
    const r = await receiver((n) => (n === 1 ? 'hang' : 200))
    const outcomes: WebhookOutcome[] = []
    await target(r.url, outcomes, { timeoutMs: 200 }).deliver(alert)
    expect(outcomes.map((o) => (o.ok ? 'ok' : o.error))).toEqual(['no answer within 0.2 s', 'ok'])
    expect(JSON.stringify(outcomes)).not.toContain('secret')
  })

  it('reaches a receiver that was down when the alert fired, once it is up again', async () => {
    const probe = await receiver(() => 200)
    const port = Number(new URL(probe.url).port)
    await probe.close()
    const outcomes: WebhookOutcome[] = []
    const delivered = target(probe.url, outcomes).deliver(alert)
    await new Promise((res) => setTimeout(res, 150))
    const back = await receiver(() => 200, port)
    await delivered
    expect(back.got).toHaveLength(1)
    expect(outcomes.filter((o) => !o.ok).length).toBeGreaterThan(0)
    expect(outcomes.at(-1)?.ok).toBe(true)
    expect(outcomes.find((o) => !o.ok)).toMatchObject({ error: 'connection refused' })
  })

  it('POSTs the same id again after a 2xx that came after the timeout, marked replayed', async () => {
    const r = await receiver((n) => (n === 1 ? 'late' : 200))
    const outcomes: WebhookOutcome[] = []
    await target(r.url, outcomes, { timeoutMs: 200 }).deliver(alert)
    expect(r.got.map((g) => [g.headers['idempotency-key'], g.body.id, g.body.replayed])).toEqual([
      ['fire-1', 'fire-1', false],
      ['fire-1', 'fire-1', true],
    ])
  })

  it('does not follow a redirect: reports it once and stops trying (the fire stays owed)', async () => {
    const r = await receiver(() => 308)
    const outcomes: WebhookOutcome[] = []
    await expect(target(r.url, outcomes).deliver(alert)).rejects.toThrow('not followed')
    expect(r.got).toHaveLength(1)
    expect(outcomes).toEqual([
      { ok: false, at: expect.any(Number), error: expect.stringContaining('HTTP 308') },
    ])
  })

  it('stops retrying a receiver that answers 410 Gone, and says so', async () => {
    const r = await receiver(() => 410)
    const outcomes: WebhookOutcome[] = []
    await expect(target(r.url, outcomes).deliver(alert)).rejects.toThrow('410 Gone')
    expect(r.got).toHaveLength(1)
    expect(outcomes.at(-1)).toMatchObject({
      ok: false,
      error: expect.stringContaining('not retried'),
    })
  })

  it('gives up after the give-up time, leaving the fire owed (the promise rejects)', async () => {
    const r = await receiver(() => 503)
    const outcomes: WebhookOutcome[] = []
    await expect(target(r.url, outcomes, { giveUpMs: 1_000 }).deliver(alert)).rejects.toThrow(
      'HTTP 503',
    )
    expect(r.got.length).toBeGreaterThan(1)
  })
})
