import { resolveConfig } from '../../core/engine/engine-config'
import { afterEach, describe, expect, it } from 'vitest'
import { startDemoService } from '../../sim'
import { SettingsSchema } from '../../shared/settings'
import { chooseFeed, savedConfig, wantedConfig, type DemoService } from './feed-chooser'

/** The real demo service (the simulator on loopback), with its starts and closes counted. */
function countedDemo(): {
  start: () => Promise<DemoService>
  started: DemoService[]
  closed: number
} {
  const counts = { started: [] as DemoService[], closed: 0 }
  return Object.assign(counts, {
    start: async () => {
      const demo = await startDemoService({ seed: 2, tickIntervalMs: 1000 })
      const counted = {
        ...demo,
        close: () => {
          counts.closed++
          return demo.close()
        },
      }
      counts.started.push(counted)
      return counted
    },
  })
}

const open: DemoService[] = []
afterEach(async () => {
  for (const demo of open.splice(0)) await demo.close()
})

describe('the feed chooser', () => {
  it('takes each field from flags, then TICKDESK_* variables, then what the app saved', () => {
    const wanted = wantedConfig({
      flags: { plan: 'enterprise' },
      env: { TICKDESK_PLAN: 'growth', TICKDESK_RPM: '40', TICKDESK_API_KEY: 'env-key-0001' },
      saved: {
        baseUrl: 'https://saved.example.com',
        apiKey: 'saved-key-0001',
        plan: 'free',
        rpm: 10,
      },
    })
    expect(wanted).toEqual({
      baseUrl: 'https://saved.example.com',
      streamUrl: undefined,
      apiKey: 'env-key-0001',
      plan: 'enterprise',
      rpm: 40,
    })
  })

  it('reads saved settings: an empty base URL and no RPM override are not set', () => {
    expect(savedConfig(SettingsSchema.parse({}))).toEqual({
      baseUrl: undefined,
      auth: 'x-api-key',
      plan: 'free',
      rpm: undefined,
    })
  })

  it('carries the key’s header scheme from Settings to the engine’s config', () => {
    const saved = savedConfig(
      SettingsSchema.parse({ baseUrl: 'https://api.example.com', auth: 'bearer' }),
    )
    expect(resolveConfig({ ...saved, apiKey: 'k-123456789' })?.auth).toBe('bearer')
  })

  it('uses the configured service when a base URL and a key are known, starting no demo', async () => {
    const demo = countedDemo()
    const choice = await chooseFeed(
      { baseUrl: 'https://api.example.com/', apiKey: 'sk-0001-0002', plan: 'growth' },
      demo.start,
    )
    expect(choice.demo).toBeNull()
    expect(choice.config).toMatchObject({
      baseUrl: 'https://api.example.com',
      streamUrl: 'wss://api.example.com/api/v1/market/stream',
      plan: 'growth',
      rpm: 120,
      demo: false,
    })
    expect(demo.started).toHaveLength(0)
  })

  it('starts the host’s demo service without a key, keeps it while demo mode stays, and closes it when a service takes over', async () => {
    const demo = countedDemo()
    const first = await chooseFeed({ baseUrl: 'https://api.example.com' }, demo.start)
    open.push(...demo.started)
    expect(first.config).toMatchObject({ demo: true, plan: 'pro', rpm: 600 })
    expect(first.config.baseUrl).toBe(first.demo?.url)
    expect(first.config.apiKey).toBe(first.demo?.apiKey)
    const again = await chooseFeed({}, demo.start, first.demo)
    expect(again.demo).toBe(first.demo)
    expect(demo.started).toHaveLength(1)
    const real = await chooseFeed(
      { baseUrl: 'https://a.example.com', apiKey: 'k' },
      demo.start,
      again.demo,
    )
    expect(real.demo).toBeNull()
    expect(demo.closed).toBe(1)
    open.length = 0
  })
})
