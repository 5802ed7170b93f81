import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openDataStores } from '../core/persistence/stores'
import { SettingsSchema } from '../shared/settings'
import { chooseCliFeed, UsageError } from './feed-options'

const noDemo = (): Promise<never> => Promise.reject(new Error('no demo here'))
const env = { TICKDESK_API_KEY: 'k-1234567890' }

describe('the feed flags', () => {
  it.each([
    [{ 'base-url': 'http://api.example.com' }, /--base-url: the base URL must use https:\/\//],
    [{ 'base-url': 'https://u:p@api.example.com' }, /--base-url: .*user name or password/],
    [{ 'base-url': 'ftp://api.example.com' }, /--base-url: .*must start with https/],
    [
      { 'base-url': 'https://api.example.com', 'stream-url': 'ws://s.example.com/x' },
      /--stream-url: the stream URL must use wss:\/\//,
    ],
  ])('refuse %j with the URL policy’s reason', async (values, why) => {
    const refused = chooseCliFeed(values, env, noDemo)
    await expect(refused).rejects.toBeInstanceOf(UsageError)
    await expect(refused).rejects.toThrow(why)
  })

  it('take an https service and a plain http one on this machine, with the key from the environment', async () => {
    const remote = await chooseCliFeed({ 'base-url': 'https://api.example.com/' }, env, noDemo)
    expect(remote.config).toMatchObject({
      baseUrl: 'https://api.example.com',
      streamUrl: 'wss://api.example.com/api/v1/market/stream',
      apiKey: env.TICKDESK_API_KEY,
    })
    const local = await chooseCliFeed(
      { 'base-url': 'http://127.0.0.1:9000', 'stream-url': 'ws://127.0.0.1:9001/s' },
      env,
      noDemo,
    )
    expect(local.config).toMatchObject({ streamUrl: 'ws://127.0.0.1:9001/s' })
  })

  it('refuse an address from the environment the same way', async () => {
    await expect(
      chooseCliFeed({}, { ...env, TICKDESK_BASE_URL: 'http://api.example.com' }, noDemo),
    ).rejects.toThrow(/TICKDESK_BASE_URL: the base URL must use https/)
  })
})

describe('the key from the environment and the app’s settings.json', () => {
  it('never sends TICKDESK_API_KEY to a base URL read from settings.json (a page can write it)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tickdesk-cli-feed-'))
    const stores = openDataStores(dataDir)
    await stores.settings.save({ ...SettingsSchema.parse({}), baseUrl: 'https://evil.example' })
    let demos = 0
    const demo = async (): Promise<never> => {
      demos++
      throw new Error('demo mode chosen')
    }
    // The env key would have gone to evil.example: demo mode instead, and why.
    await expect(chooseCliFeed({ 'data-dir': dataDir }, env, demo)).rejects.toThrow(
      'demo mode chosen',
    )
    expect(demos).toBe(1)
    // Named by a flag, the same service takes the environment's key.
    const named = await chooseCliFeed(
      { 'data-dir': dataDir, 'base-url': 'https://evil.example' },
      env,
      demo,
    )
    expect(named.config).toMatchObject({ apiKey: env.TICKDESK_API_KEY })
  })
})
