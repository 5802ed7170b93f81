import { describe, expect, it } from 'vitest'
import { maskedWebhookUrl, webhookHost, webhookView, type Webhook } from './alert'

const hook: Webhook = {
  id: 'w1',
  url: 'https://hooks.slack.com/services/T0/B0/SECRET?token=T',
  addedAt: 5,
  failures: 2,
  lastError: 'HTTP 500',
  lastDeliveredAt: 7,
  signed: true,
  format: 'slack',
}

describe('what a page and the CLI may show of a webhook', () => {
  it('gives the page its id, host, kind and record, and nothing of its URL beyond the host', () => {
    expect(webhookView(hook)).toEqual({
      id: 'w1',
      host: 'hooks.slack.com',
      kind: 'slack',
      failures: 2,
      lastError: 'HTTP 500',
      lastDeliveredAt: 7,
      signed: true,
    })
    expect(webhookView({ ...hook, format: undefined }).kind).toBe('json')
  })

  it('names the host with its port, and ? for what is no URL', () => {
    expect(webhookHost('https://hooks.example.com:8443/x')).toBe('hooks.example.com:8443')
    expect(webhookHost('not a url')).toBe('?')
  })

  it('prints a URL as its scheme and host, the rest elided', () => {
    expect(maskedWebhookUrl('https://hooks.example.com/services/SECRET')).toBe(
      'https://hooks.example.com/…',
    )
    expect(maskedWebhookUrl('https://hooks.example.com/?token=SECRET')).toBe(
      'https://hooks.example.com/…',
    )
    expect(maskedWebhookUrl('https://hooks.example.com/#SECRET')).toBe(
      'https://hooks.example.com/…',
    )
    expect(maskedWebhookUrl('https://hooks.example.com')).toBe('https://hooks.example.com/')
    expect(maskedWebhookUrl('not a url')).toBe('?')
  })
})
