import type { Server } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { FakeClock } from '../../core/clock'
import type { FiredAlert, Webhook } from '../../shared/alerts/alert'
import { shapeReceiver, type ShapeKind } from '../testing/shape-receiver'
import { webhookRequest } from './webhook-formats'
import { webhookTarget, type WebhookOutcome } from './webhook-sender'
import { testWebhook } from './webhook-test'
import { webhookEntry } from '../testing/alert-fixtures'

/** Each format accepted by a loopback receiver that checks its documented shape. */

const servers: Server[] = []
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections()
    await new Promise((r) => s.close(r))
  }
})

const fire: FiredAlert = {
  id: 'fire-40',
  ruleId: 'r1',
  key: 'crypto:ETHUSDT',
  message: 'ETHUSDT crossed above 3,500 <!channel> @everyone',
  price: 3_501.25,
  at: Date.UTC(2026, 10, 26, 22, 0, 0),
  whileAway: false,
  awaySince: null,
  quoteAt: null,
  firedBy: 'app',
}

const hook = (url: string, over: Partial<Webhook>): Webhook => webhookEntry({ url, ...over })

const KINDS: Array<[ShapeKind, Partial<Webhook>]> = [
  ['slack', { format: 'slack' }],
  ['discord', { format: 'discord' }],
  ['telegram', { format: 'telegram', chatId: '-1001234567890' }],
  ['ntfy', { format: 'ntfy' }],
]

describe('webhook formats against receivers that check each service’s documented shape', () => {
  it.each(KINDS)(
    '%s: a fire is delivered (2xx) carrying symbol, condition, price, time and fire id',
    async (kind, over) => {
      const r = await shapeReceiver(kind)
      servers.push(r.server)
      const outcomes: WebhookOutcome[] = []
      const h = hook(r.url, over)
      const target = webhookTarget({
        webhook: h,
        clock: new FakeClock(0),
        onOutcome: (_id, o) => outcomes.push(o),
        request: (a) => webhookRequest(h, a),
        giveUpMs: 0,
      })
      await target.deliver(fire)
      expect(r.refused).toEqual([])
      expect(outcomes).toEqual([{ ok: true, at: 0 }])
      const seen = r.got[0]!
      const text = `${seen.body} ${String(seen.headers['title'] ?? '')}`
      for (const part of [
        'ETHUSDT',
        'crossed above 3,500',
        '3501.25',
        '2026-11-26T22:00:00.000Z',
        'fire-40',
      ])
        expect(text, part).toContain(part)
    },
  )

  it('keeps a note from pinging a whole channel: Slack escapes <!channel>, Discord allows no mentions', () => {
    const slack = webhookRequest(hook('https://hooks.slack.com/x', { format: 'slack' }), fire)
    expect(slack.body).not.toContain('<!channel>')
    expect(slack.body).toContain('&lt;!channel&gt;')
    const discord = JSON.parse(
      webhookRequest(hook('https://discord.com/x', { format: 'discord' }), fire).body,
    )
    expect(discord.allowed_mentions).toEqual({ parse: [] })
  })

  it('posts Telegram to <bot URL>/sendMessage with the chat id as a number', () => {
    const req = webhookRequest(
      hook('https://api.telegram.org/bot123:ABC', { format: 'telegram', chatId: '42' }),
      fire,
    )
    expect(req.url.href).toBe('https://api.telegram.org/bot123:ABC/sendMessage')
    expect(JSON.parse(req.body)).toMatchObject({ chat_id: 42 })
  })

  it.each<[ShapeKind | 'json', Partial<Webhook>]>([...KINDS, ['json', {}]])(
    '%s: `webhook test` sends a marked test and reports the receiver’s 2xx and answer',
    async (kind, over) => {
      const r = await shapeReceiver(kind === 'json' ? 'slack' : kind)
      servers.push(r.server)
      // json goes to the Slack-shaped receiver, which refuses it: a test that says so, exit non-zero.
      const result = await testWebhook(hook(r.url, over), {
        clock: new FakeClock(fire.at),
        secrets: null,
      })
      if (kind === 'json') {
        expect(result).toMatchObject({ ok: false, status: 400 })
        expect(result.answer).toContain('invalid_payload')
        return
      }
      expect(result.ok).toBe(true)
      expect(r.got[0]!.body + String(r.got[0]!.headers['title'] ?? '')).toMatch(
        /TEST from Tickdesk|"test":true/,
      )
      if (kind === 'telegram') expect(result.answer).toContain('"ok":true')
    },
  )
})
