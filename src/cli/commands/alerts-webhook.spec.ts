import { readFile } from 'node:fs/promises'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openDataStores } from '../../core/persistence/stores'
import { runCli, tempDataDir } from '../testing/cli-harness'
import { run as alerts } from './alerts'

/** `tickdesk alerts webhook add|remove`: a webhook URL is a bearer secret (issue 38, finding 2). */

let data: Awaited<ReturnType<typeof tempDataDir>>
const env = (): NodeJS.ProcessEnv => ({ TICKDESK_DATA_DIR: data.dir })
beforeEach(async () => {
  data = await tempDataDir()
})
afterEach(() => data.remove())

const SLACK = 'https://hooks.slack.com/services/T000/B000/XXXXSECRETXXXX'
const DISCORD = 'https://discord.com/api/webhooks/123/DISCORD-SECRET-TOKEN'

async function cli(args: string[], stdin?: string): Promise<ReturnType<typeof runCli>> {
  const r = runCli(alerts, args, { env: env(), ...(stdin !== undefined ? { stdin } : {}) })
  await r.exit
  return r
}

describe('tickdesk alerts webhook', () => {
  it('prints an added webhook masked: scheme and host, never its token', async () => {
    const r = await cli(['webhook', 'add', SLACK])
    expect(await r.exit).toBe(0)
    expect(r.stdout()).toMatch(
      /^Added webhook \w+: fired alerts are POSTed to https:\/\/hooks\.slack\.com\/…\n$/,
    )
    expect(r.stdout() + r.stderr()).not.toContain('SECRET')
  })

  it('reads the URL from stdin with --url-stdin or "-", so it stays out of history and ps', async () => {
    const a = await cli(['webhook', 'add', '--url-stdin'], `${SLACK}\n`)
    expect(await a.exit).toBe(0)
    const b = await cli(['webhook', 'add', '-'], DISCORD)
    expect(await b.exit).toBe(0)
    const saved = (await openDataStores(data.dir).webhooks.load()).value.map((h) => h.url)
    expect(saved).toEqual([SLACK, DISCORD])
    expect(a.stdout() + b.stdout()).not.toContain('SECRET')
    const none = await cli(['webhook', 'add', '-'], '\n')
    expect(await none.exit).toBe(2)
    expect(none.stderr()).toContain('no webhook URL on stdin')
  })

  it('leaves no trace of a removed webhook’s URL in the store’s backup file', async () => {
    await cli(['webhook', 'add', SLACK])
    await cli(['webhook', 'add', DISCORD])
    const hooks = (await openDataStores(data.dir).webhooks.load()).value
    const slack = hooks.find((h) => h.url === SLACK)!
    expect(await (await cli(['webhook', 'remove', slack.id])).exit).toBe(0)
    const stores = openDataStores(data.dir)
    const files = [stores.webhooks.path, stores.webhooks.backupPath]
    const text = (await Promise.all(files.map((f) => readFile(f, 'utf8')))).join('\n')
    expect(text).not.toContain('XXXXSECRETXXXX')
    expect(text).toContain('DISCORD-SECRET-TOKEN')
  })

  it('refuses plain http off this machine and a URL with a user name or password', async () => {
    for (const url of ['http://example.com/hook', 'https://me:pw@example.com/hook']) {
      const r = await cli(['webhook', 'add', url])
      expect(await r.exit).toBe(2)
      expect(r.stderr()).toMatch(/https|user name or password/)
      expect(r.stderr()).not.toContain('pw@')
    }
    expect((await openDataStores(data.dir).webhooks.load()).value).toEqual([])
  })

  it('adds a signed webhook only with its secret in the OS keychain, and says so where there is none', async () => {
    const r = await cli(['webhook', 'add', '--sign', SLACK])
    const saved = (await openDataStores(data.dir).webhooks.load()).value
    if ((await r.exit) === 0) {
      expect(r.stdout()).toMatch(/Signing secret .*: tdwh_[0-9a-f]{64}\n/)
      expect(saved).toMatchObject([{ url: SLACK, signed: true }])
    } else {
      expect(r.stderr()).toMatch(/keychain.*the webhook was not added/)
      expect(saved).toEqual([])
    }
  })
})
