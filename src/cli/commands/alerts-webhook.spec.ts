import { readFile } from 'node:fs/promises'
import type { Server } from 'node:http'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { shapeReceiver } from '../../app/testing/shape-receiver'
import { openDataStores } from '../../core/persistence/stores'
import { runCli, tempDataDir } from '../testing/cli-harness'
import { run as alerts } from './alerts'
import { ON_COMMAND_LINE } from './alerts-webhook'

/** `tickdesk alerts webhook add|remove`: a webhook URL is a bearer secret. */

let data: Awaited<ReturnType<typeof tempDataDir>>
const env = (): NodeJS.ProcessEnv => ({ TICKDESK_DATA_DIR: data.dir })
beforeEach(async () => {
  data = await tempDataDir()
})
const servers: Server[] = []
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections()
    await new Promise((r) => s.close(r))
  }
  await data.remove()
})

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
      /^Added webhook \w+ \(json\): fired alerts are POSTed to https:\/\/hooks\.slack\.com\/…\n$/,
    )
    expect(r.stdout() + r.stderr()).not.toContain('SECRET')
  })

  it('says out loud that a URL given as an argument is in the shell history and the process list', async () => {
    const r = await cli(['webhook', 'add', SLACK])
    expect(r.stderr()).toBe(ON_COMMAND_LINE)
    expect(r.stderr()).toMatch(/shell history.*other users.*stdin instead \(`-` or --url-stdin\)/)
    const quiet = await cli(['webhook', 'add', '-'], DISCORD)
    expect(quiet.stderr()).toBe('')
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

  it('leaves no trace of an edited webhook’s old URL in the store’s backup file', async () => {
    await cli(['webhook', 'add', SLACK])
    const stores = openDataStores(data.dir)
    const [hook] = (await stores.webhooks.load()).value
    const fixed = SLACK.replace('XXXXSECRETXXXX', 'NEWTOKEN0001')
    await stores.webhooks.save([{ ...hook!, url: fixed }])
    const files = [stores.webhooks.path, stores.webhooks.backupPath]
    const text = (await Promise.all(files.map((f) => readFile(f, 'utf8')))).join('\n')
    expect(text).not.toContain('XXXXSECRETXXXX')
    expect(text).toContain('NEWTOKEN0001')
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

  it('adds a webhook per format (telegram with its chat id) and `webhook test` exits 0 only on the receiver’s 2xx', async () => {
    const telegram = await shapeReceiver('telegram')
    const slack = await shapeReceiver('slack')
    servers.push(telegram.server, slack.server)
    const noChat = await cli(['webhook', 'add', '--format', 'telegram', telegram.url])
    expect(await noChat.exit).toBe(2)
    expect(noChat.stderr()).toContain('--chat-id')
    const t = await cli(['webhook', 'add', '--format', 'telegram', '--chat-id', '42', telegram.url])
    expect(await t.exit).toBe(0)
    expect(t.stdout()).toContain('(telegram)')
    // A Slack URL added as plain JSON: Slack refuses Tickdesk's own body, and the test says so.
    const wrong = await cli(['webhook', 'add', slack.url])
    expect(await wrong.exit).toBe(0)
    const [tg, js] = (await openDataStores(data.dir).webhooks.load()).value
    const ok = await cli(['webhook', 'test', tg!.id])
    expect(await ok.exit).toBe(0)
    expect(ok.stdout()).toMatch(
      new RegExp(`^webhook ${tg!.id} \\(telegram 127\\.0\\.0\\.1:\\d+\\): HTTP 200 — .*"ok":true`),
    )
    expect(ok.stdout()).not.toContain('SECRET')
    const bad = await cli(['webhook', 'test', js!.id])
    expect(await bad.exit).toBe(1)
    expect(bad.stdout()).toContain('HTTP 400 — invalid_payload')
    const all = await cli(['webhook', 'test'])
    expect(await all.exit).toBe(1)
    expect(all.stdout().trim().split('\n')).toHaveLength(2)
    const listed = runCli(alerts, ['list'], { env: env() })
    await listed.exit
    expect(listed.stdout()).toContain(`webhook ${tg!.id}  telegram  http://127.0.0.1:`)
  })
})
