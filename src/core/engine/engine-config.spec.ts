import { describe, expect, it } from 'vitest'
import { configFromEnv, deriveStreamUrl, resolveConfig } from './engine-config'

describe('engine configuration', () => {
  it('derives the stream URL from the base URL as the spec says (scheme ws/wss, path /api/v1/market/stream)', () => {
    expect(deriveStreamUrl('https://api.example.com')).toBe(
      'wss://api.example.com/api/v1/market/stream',
    )
    expect(deriveStreamUrl('http://127.0.0.1:8080/')).toBe(
      'ws://127.0.0.1:8080/api/v1/market/stream',
    )
  })

  it('keeps a path prefix of the base URL for the stream, as REST keeps it', () => {
    expect(deriveStreamUrl('https://gw.example.com/market-data')).toBe(
      'wss://gw.example.com/market-data/api/v1/market/stream',
    )
    expect(deriveStreamUrl('http://127.0.0.1:8080/proxy/')).toBe(
      'ws://127.0.0.1:8080/proxy/api/v1/market/stream',
    )
    expect(resolveConfig({ baseUrl: 'https://gw.example.com/md/', apiKey: 'k' })).toMatchObject({
      baseUrl: 'https://gw.example.com/md',
      streamUrl: 'wss://gw.example.com/md/api/v1/market/stream',
    })
  })

  it("accepts the spec's other plan names: Trial is Free, Standard is Growth", () => {
    expect(configFromEnv({ TICKDESK_PLAN: 'Trial' }).plan).toBe('free')
    expect(configFromEnv({ TICKDESK_PLAN: 'standard' }).plan).toBe('growth')
    expect(configFromEnv({ TICKDESK_PLAN: 'PRO' }).plan).toBe('pro')
    expect(resolveConfig({ baseUrl: 'https://x.test', apiKey: 'k', plan: 'growth' })?.rpm).toBe(120)
  })

  it('reads TICKDESK_* variables, treating empty ones as unset', () => {
    const c = configFromEnv({
      TICKDESK_BASE_URL: 'https://x.test',
      TICKDESK_API_KEY: '',
      TICKDESK_PLAN: 'growth',
      TICKDESK_RPM: '50',
    })
    expect(c).toEqual({
      baseUrl: 'https://x.test',
      streamUrl: undefined,
      apiKey: undefined,
      plan: 'growth',
      rpm: 50,
    })
  })

  it('rejects a bad plan or RPM with a message naming the variable', () => {
    expect(() => configFromEnv({ TICKDESK_PLAN: 'gold' })).toThrow(/TICKDESK_PLAN/)
    expect(() => configFromEnv({ TICKDESK_RPM: '-1' })).toThrow(/TICKDESK_RPM/)
    expect(() => configFromEnv({ TICKDESK_BASE_URL: 'ftp://x' })).toThrow(/TICKDESK_BASE_URL/)
  })

  it('holds TICKDESK_BASE_URL and TICKDESK_STREAM_URL to the URL policy: https, plain http only to this machine, no credentials', () => {
    expect(configFromEnv({ TICKDESK_BASE_URL: 'http://127.0.0.1:8080' }).baseUrl).toBe(
      'http://127.0.0.1:8080',
    )
    expect(() => configFromEnv({ TICKDESK_BASE_URL: 'http://api.example.com' })).toThrow(
      /TICKDESK_BASE_URL: the base URL must use https:\/\//,
    )
    expect(() => configFromEnv({ TICKDESK_BASE_URL: 'https://key:x@api.example.com' })).toThrow(
      /TICKDESK_BASE_URL: the base URL must not hold a user name or password/,
    )
    expect(() =>
      configFromEnv({ TICKDESK_STREAM_URL: 'ws://stream.example.com/api/v1/market/stream' }),
    ).toThrow(/TICKDESK_STREAM_URL: the stream URL must use wss:\/\//)
    expect(configFromEnv({ TICKDESK_STREAM_URL: 'wss://s.example.com/x' }).streamUrl).toBe(
      'wss://s.example.com/x',
    )
  })

  it('means demo mode (null) without a base URL or a key', () => {
    expect(resolveConfig({ apiKey: 'k' })).toBeNull()
    expect(resolveConfig({ baseUrl: 'https://x.test' })).toBeNull()
  })

  it("defaults to the Free plan's 30 RPM and lets TICKDESK_RPM lower it", () => {
    expect(resolveConfig({ baseUrl: 'https://x.test/', apiKey: 'k' })).toMatchObject({
      plan: 'free',
      rpm: 30,
      baseUrl: 'https://x.test',
      demo: false,
    })
    expect(
      resolveConfig({ baseUrl: 'https://x.test', apiKey: 'k', plan: 'pro', rpm: 100 })?.rpm,
    ).toBe(100)
  })
})
