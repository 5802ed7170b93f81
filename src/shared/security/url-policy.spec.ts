import { describe, expect, it } from 'vitest'
import { isLoopbackHost, MAX_URL_LENGTH, urlAllowed, urlProblem } from './url-policy'

describe('the one URL policy: https, plain http only to this machine, no credentials', () => {
  it.each([
    ['https://api.example.com', 'service'],
    ['https://gw.example.com:8443/md', 'service'],
    ['http://127.0.0.1:8080', 'service'],
    ['http://127.1.2.3', 'service'],
    ['http://127.1', 'service'],
    ['http://localhost:9000/', 'service'],
    ['http://[::1]:9000/', 'service'],
    ['wss://api.example.com/api/v1/market/stream', 'stream'],
    ['ws://127.0.0.1:8080/api/v1/market/stream', 'stream'],
    ['https://hooks.slack.com/services/T/B/x', 'webhook'],
    ['http://127.0.0.1:8080/hook', 'webhook'],
  ] as const)('allows %s for the %s', (url, use) => {
    expect(urlProblem(url, use)).toBeNull()
    expect(urlAllowed(url, use)).toBe(true)
  })

  it.each([
    [
      'http://api.example.com',
      'service',
      /base URL must use https:\/\/.*plain http:\/\/ only to this machine/,
    ],
    ['http://127.0.0.1.example.com', 'service', /must use https/],
    ['http://10.0.0.2', 'service', /must use https/],
    ['http://localhost.example', 'service', /must use https/],
    ['http://[::ffff:127.0.0.1]/', 'service', /must use https/],
    ['http://128.0.0.1/', 'service', /must use https/],
    ['https://KEY@api.example.com', 'service', /base URL must not hold a user name or password/],
    ['https://user:pass@api.example.com', 'service', /user name or password/],
    ['http://user@127.0.0.1/', 'service', /user name or password/],
    ['ftp://api.example.com', 'service', /base URL must start with https:\/\//],
    ['wss://api.example.com', 'service', /must start with https/],
    ['https://api.example.com', 'stream', /stream URL must start with wss:\/\//],
    ['ws://stream.example.com/s', 'stream', /stream URL must use wss:\/\/.*plain ws:\/\//],
    ['http://hooks.example.com/x', 'webhook', /webhook URL must use https/],
    ['not-a-url', 'webhook', /webhook URL is not a URL/],
    ['https://api.example.com/ x', 'service', /spaces or control characters/],
    ['https://api.example.com/\u001b[2J', 'service', /control characters/],
    ['https://api.example.com/\u0085', 'service', /control characters/],
  ] as const)('refuses %s for the %s, saying why', (url, use, why) => {
    expect(urlProblem(url, use)).toMatch(why)
    expect(urlAllowed(url, use)).toBe(false)
  })

  it('says where the secret a user name or password would carry goes instead, per use', () => {
    expect(urlProblem('https://:pw@api.example.com', 'service')).toBe(
      'the base URL must not hold a user name or password (the API key goes in its own field)',
    )
    expect(urlProblem('wss://u@s.example.com/x', 'stream')).toBe(
      'the stream URL must not hold a user name or password (the API key goes in its own field)',
    )
    expect(urlProblem('https://:t@hooks.example.com/x', 'webhook')).toBe(
      'a webhook URL must not hold a user name or password (use a token the service issues, or signing)',
    )
  })

  it('refuses an address longer than it allows, and takes one of that length', () => {
    const base = 'https://api.example.com/'
    const at = base + 'a'.repeat(MAX_URL_LENGTH - base.length)
    expect(urlProblem(at, 'service')).toBeNull()
    expect(urlProblem(`${at}a`, 'service')).toMatch(/longer than 2000/)
  })

  it('reads loopback from a parsed hostname only: 127.0.0.0/8, ::1, localhost', () => {
    for (const host of ['127.0.0.1', '127.255.255.255', 'localhost', 'LOCALHOST', '[::1]', '::1'])
      expect(isLoopbackHost(host), host).toBe(true)
    for (const host of [
      '127.0.0.256',
      '127.0.0',
      '127.0.0.1.x',
      'x127.0.0.1',
      '126.0.0.1',
      '::2',
      '[::]',
      'localhost.',
    ])
      expect(isLoopbackHost(host), host).toBe(false)
  })
})
