import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
// @ts-expect-error: a plain .mjs script, no types
import { keyBoundToItsHost, webhookUrlOffBridge } from '../../scripts/security-static.mjs'

type Check = (read: (path: string) => string) => string[]
const root = join(import.meta.dirname, '..', '..')
const repo = (path: string): string => readFileSync(join(root, path), 'utf8')
/** The repository's text with one file replaced: what a regression would leave. */
const withFile =
  (path: string, edit: (text: string) => string) =>
  (p: string): string =>
    p === path ? edit(repo(p)) : repo(p)

describe('the security scan’s static checks (issue 38, finding 8)', () => {
  it('pass on the code as it is, and `npm run security -- --static` says so', () => {
    expect((webhookUrlOffBridge as Check)(repo)).toEqual([])
    expect((keyBoundToItsHost as Check)(repo)).toEqual([])
    const out = execFileSync(
      process.execPath,
      [join(root, 'scripts/security-scan.mjs'), '--static'],
      {
        encoding: 'utf8',
      },
    )
    expect(out).toContain('security scan: ok')
  })

  it('fail when a webhook’s url comes back onto the bridge', () => {
    const urlInView = withFile('src/shared/alerts/alert.ts', (t) =>
      t.replace(
        '    host: z.string().max(300),',
        '    host: z.string().max(300),\n    url: z.string(),',
      ),
    )
    expect((webhookUrlOffBridge as Check)(urlInView)).toEqual([
      expect.stringContaining('WebhookViewSchema has a url field'),
    ])
    const fullRecord = withFile('src/shared/bridge.ts', (t) =>
      t.replace('webhooks: z.array(WebhookViewSchema)', 'webhooks: z.array(WebhookSchema)'),
    )
    expect((webhookUrlOffBridge as Check)(fullRecord).join('\n')).toContain('not WebhookViewSchema')
  })

  it('fail when the engine gets the kept key without its host binding', () => {
    const unbound = withFile('src/app/keys/keyed-feed.ts', (t) =>
      t.replace('this.keys.keyFor(wanted.baseUrl)', 'this.keys.anyKey()'),
    )
    expect((keyBoundToItsHost as Check)(unbound).join('\n')).toContain('keys.keyFor')
    const past = withFile('src/app/app-service.ts', (t) =>
      t.replace('return this.keyed.setApiKey(apiKey)', 'return this.engine.setApiKey(apiKey)'),
    )
    expect((keyBoundToItsHost as Check)(past).join('\n')).toContain('past keyed-feed.ts')
    const getter = withFile('src/app/keys/key-keeper.ts', (t) =>
      t.replace('  keyFor(', '  get saved(): string | null {\n    return null\n  }\n\n  keyFor('),
    )
    expect((keyBoundToItsHost as Check)(getter).join('\n')).toContain('without its host binding')
  })
})
