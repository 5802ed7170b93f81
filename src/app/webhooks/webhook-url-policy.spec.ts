import { describe, expect, it } from 'vitest'
import type { Webhook } from '../../shared/alerts/alert'
import { webhookEntry } from '../testing/alert-fixtures'
import {
  PLAIN_HTTP_DISABLED,
  storedWebhookRefusal,
  storedWebhookView,
  webhookUrlProblem,
} from './webhook-url-policy'

describe('where a webhook may point', () => {
  it.each([
    'https://hooks.slack.com/services/T/B/x',
    'https://ntfy.sh/my-topic',
    'http://127.0.0.1:8080/hook',
    'http://127.1.2.3/hook',
    'http://localhost:9000/',
    'http://[::1]:9000/',
  ])('accepts %s', (url) => {
    expect(webhookUrlProblem(url)).toBeNull()
  })

  it.each([
    ['http://example.com/hook', /https/],
    ['http://127.0.0.1.example.com/hook', /https/],
    ['http://10.0.0.2/hook', /https/],
    ['https://user:secret@example.com/hook', /user name or password/],
    ['http://user@127.0.0.1/hook', /user name or password/],
    ['ftp://example.com/hook', /https/],
    ['not-a-url', /not a URL/],
    ['https://hooks.example.com/a b', /spaces/],
  ])('refuses %s', (url, why) => {
    expect(webhookUrlProblem(url)).toMatch(why)
  })
})

describe('a webhook already stored that the policy now refuses', () => {
  const hook = (url: string): Webhook => webhookEntry({ url })

  it('is kept and shown disabled with why, never deleted', () => {
    expect(storedWebhookRefusal('https://hooks.example.com/x')).toBeNull()
    expect(storedWebhookRefusal('http://hooks.example.com/x')).toBe(PLAIN_HTTP_DISABLED)
    for (const url of ['https://user@hooks.example.com/x', 'https://:pw@hooks.example.com/x'])
      expect(storedWebhookRefusal(url), url).toBe(
        'a user name or password in the URL is no longer allowed; re-add it without them (use signing)',
      )
    expect(storedWebhookRefusal('ftp://hooks.example.com/x')).toBe(
      'a webhook URL must start with https://; re-add it',
    )
    expect(storedWebhookRefusal('not-a-url')).toBe('a webhook URL is not a URL; re-add it')
  })

  it('shows the page its view, marked disabled only when it is', () => {
    expect(storedWebhookView(hook('https://hooks.example.com/x'))).not.toHaveProperty('disabled')
    expect(storedWebhookView(hook('http://hooks.example.com/x'))).toMatchObject({
      host: 'hooks.example.com',
      disabled: PLAIN_HTTP_DISABLED,
    })
  })
})
