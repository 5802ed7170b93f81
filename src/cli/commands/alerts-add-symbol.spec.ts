import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openDataStores } from '../../core/persistence/stores'
import { runCli, tempDataDir } from '../testing/cli-harness'
import { run as alerts } from './alerts'

/**
 * `tickdesk alerts add` on a symbol outside the catalogue: one quote call to
 * the service, as the app makes before adding such a symbol, here the embedded simulator on
 * loopback (no base URL given). It serves synthetic symbols the catalogue does not list
 * (crypto:ZC<n>) and refuses the rest with UNKNOWN_SYMBOL.
 */

let data: Awaited<ReturnType<typeof tempDataDir>>
const env = (): NodeJS.ProcessEnv => ({ TICKDESK_DATA_DIR: data.dir })

beforeEach(async () => {
  data = await tempDataDir()
})
afterEach(() => data.remove())

describe('tickdesk alerts add: a symbol the catalogue does not know', () => {
  it('adds it once the service quoted it, and remembers it as confirmed', async () => {
    const r = runCli(alerts, ['add', 'crypto:ZC4242', '--above', '100'], { env: env() })
    expect(await r.exit).toBe(0)
    expect(r.stdout()).toMatch(/^Added \S+: crypto:ZC4242 above 100\n$/)
    const stores = openDataStores(data.dir)
    expect((await stores.alerts.load()).value.rules.map((x) => x.key)).toEqual(['crypto:ZC4242'])
    expect((await stores.instruments.load()).value).toContain('crypto:ZC4242')
  })

  it('refuses only what the service refuses, in its words', async () => {
    const r = runCli(alerts, ['add', 'crypto:NOPE123', '--above', '1'], { env: env() })
    expect(await r.exit).toBe(2)
    expect(r.stderr()).toMatch(
      /the service refuses crypto:NOPE123 \(UNKNOWN_SYMBOL: .*unknown symbol/,
    )
    expect((await openDataStores(data.dir).alerts.load()).value.rules).toEqual([])
  })
})
