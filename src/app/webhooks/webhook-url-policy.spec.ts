import { describe, expect, it } from 'vitest'
import { webhookUrlProblem } from './webhook-url-policy'

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
