import type { FiredAlert, Webhook } from '../../shared/alerts/alert'
import { webhookBody } from './webhook-sender'

/**
 * A fired alert as each receiver expects it: one pure function per kind, from
 * the fire to the request. Each carries the symbol, the condition as worded, the price, the time
 * and the fire id; a test (`tickdesk alerts webhook test`) says so in words and in a field.
 * Shapes, from each service's documentation:
 *   json      Tickdesk's own body (webhook-sender.ts), `test: true` on a test
 *   slack     incoming webhook: { text, blocks } (text is the notification's fallback, mrkdwn)
 *   discord   execute webhook: { content (<= 2000), embeds: [{ title, description, fields,
 *             timestamp, footer }], allowed_mentions: { parse: [] } } (no @everyone from a note)
 *   telegram  Bot API sendMessage, POSTed to <bot URL>/sendMessage: { chat_id, text (<= 4096),
 *             disable_web_page_preview }; no parse_mode, so no text is read as markup
 *   ntfy      publish: the message as the plain-text body, with Title, Tags and Priority headers
 */
export interface WebhookRequest {
  url: URL
  headers: Record<string, string>
  body: string
}

type Hook = Pick<Webhook, 'url' | 'format' | 'chatId'>

/** What every format says, in words. */
interface FireFacts {
  symbol: string
  condition: string
  price: string
  time: string
  fireId: string
  test: boolean
  /** A delivery repeated after a crash: the receiver may have it already. */
  replayed: boolean
  /** Delivered long after it fired: old news. */
  late: boolean
}

function factsOf(alert: FiredAlert, test: boolean): FireFacts {
  const json = webhookBody(alert)
  return {
    symbol: json.symbol,
    condition: alert.whileAway ? `while you were away: ${alert.message}` : alert.message,
    price: String(alert.price),
    time: new Date(alert.at).toISOString(),
    fireId: alert.id,
    test,
    replayed: alert.replayed === true,
    late: alert.late === true,
  }
}

const testMark = (f: FireFacts): string =>
  (f.test ? '[TEST from Tickdesk] ' : '') +
  (f.late ? '(late) ' : '') +
  (f.replayed ? '(repeated delivery) ' : '')
const oneLine = (f: FireFacts): string =>
  `${testMark(f)}${f.symbol}: ${f.condition} at ${f.price} (${f.time}, fire ${f.fireId})`

const json = (body: unknown): Pick<WebhookRequest, 'headers' | 'body'> => ({
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
})

/**
 * Slack reads & < > as markup (`<!channel>` pings everyone): escaped as its docs say. Only these
 * three: Slack decodes no other entity (a quote written as &quot; would show as written), so this
 * is not escapeHtml.
 */
const slackEscape = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

export function jsonFormat(
  alert: FiredAlert,
  test: boolean,
): Pick<WebhookRequest, 'headers' | 'body'> {
  return json(test ? { ...webhookBody(alert), test: true } : webhookBody(alert))
}

export function slackFormat(
  alert: FiredAlert,
  test: boolean,
): Pick<WebhookRequest, 'headers' | 'body'> {
  const f = factsOf(alert, test)
  const text = slackEscape(oneLine(f))
  return json({
    text,
    blocks: [
      {
        type: 'section',
        text: {
          type: 'mrkdwn',
          text: `${slackEscape(testMark(f))}*${slackEscape(f.symbol)}* ${slackEscape(f.condition)}`,
        },
        fields: [
          { type: 'mrkdwn', text: `*Price*\n${slackEscape(f.price)}` },
          { type: 'mrkdwn', text: `*Time*\n${f.time}` },
        ],
      },
      { type: 'context', elements: [{ type: 'mrkdwn', text: `fire ${slackEscape(f.fireId)}` }] },
    ],
  })
}

export function discordFormat(
  alert: FiredAlert,
  test: boolean,
): Pick<WebhookRequest, 'headers' | 'body'> {
  const f = factsOf(alert, test)
  return json({
    content: oneLine(f).slice(0, 2000),
    embeds: [
      {
        title: `${testMark(f)}${f.symbol}`.slice(0, 256),
        description: f.condition.slice(0, 4096),
        fields: [
          { name: 'Price', value: f.price, inline: true },
          { name: 'Fire', value: f.fireId, inline: true },
        ],
        timestamp: f.time,
        footer: { text: 'Tickdesk' },
      },
    ],
    allowed_mentions: { parse: [] },
  })
}

export function telegramFormat(
  alert: FiredAlert,
  test: boolean,
  chatId: string,
): Pick<WebhookRequest, 'headers' | 'body'> {
  const f = factsOf(alert, test)
  const chat = /^-?\d+$/.test(chatId) ? Number(chatId) : chatId
  return json({
    chat_id: chat,
    text: oneLine(f).slice(0, 4096),
    disable_web_page_preview: true,
  })
}

/** HTTP header values are ASCII here: anything else in a title becomes '?'. */
const headerText = (s: string): string => s.replace(/[^\x20-\x7e]/g, '?').slice(0, 200)

export function ntfyFormat(
  alert: FiredAlert,
  test: boolean,
): Pick<WebhookRequest, 'headers' | 'body'> {
  const f = factsOf(alert, test)
  return {
    headers: {
      'content-type': 'text/plain; charset=utf-8',
      title: headerText(`${testMark(f)}${f.symbol}`),
      tags: test ? 'test_tube,chart_with_upwards_trend' : 'chart_with_upwards_trend',
      priority: test ? '3' : '4',
    },
    body: `${f.condition}\nPrice ${f.price} at ${f.time}\nfire ${f.fireId}`,
  }
}

/** The request for a webhook of any kind; telegram posts to <URL>/sendMessage. */
export function webhookRequest(hook: Hook, alert: FiredAlert, test = false): WebhookRequest {
  const url = new URL(hook.url)
  switch (hook.format ?? 'json') {
    case 'slack':
      return { url, ...slackFormat(alert, test) }
    case 'discord':
      return { url, ...discordFormat(alert, test) }
    case 'telegram': {
      const send = new URL(url)
      send.pathname = `${url.pathname.replace(/\/+$/, '')}/sendMessage`
      return { url: send, ...telegramFormat(alert, test, hook.chatId ?? '') }
    }
    case 'ntfy':
      return { url, ...ntfyFormat(alert, test) }
    default:
      return { url, ...jsonFormat(alert, test) }
  }
}
