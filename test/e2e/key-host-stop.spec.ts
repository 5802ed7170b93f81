import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { memorySecretStore } from '../../src/app'
import { EMPTY_RING, packRing, withKey } from '../../src/app/keys/key-binding'
import { KEY_WITHHELD } from '../../src/app/keys/key-keeper'
import { keysSeen, listenElsewhere } from '../../src/app/testing/elsewhere-receiver'
import { silentLogger } from '../../src/core/log'
import { openDataStores } from '../../src/core/persistence/stores'
import { startDemoService, startSimulator } from '../../src/sim'
import { rendererDir, startBrowserHost } from '../../src/web'
import { connectBridge } from './bridge-client'
import { chromiumOrSkip } from './chromium'
import { openDeskInChromium } from './desk-in-chromium'

const chromiumPath = chromiumOrSkip()

/**
 * The browser host, seen in Chromium: the key was entered for the simulator (127.0.0.1) and a
 * page moves the base URL to 127.0.0.2. The desk does not turn into a demo: the status bar says
 * Stopped with the reason, the notice says how to go live again, the rows keep their last real
 * prices greyed as stale, and no DEMO badge shows.
 */
describe.skipIf(!chromiumPath)('a base URL moved away from the key (Chromium)', () => {
  it('stops the live desk: Stopped with the reason, stale rows, no DEMO', async () => {
    const sim = await startSimulator({ seed: 38, tickIntervalMs: 200 })
    const elsewhere = await listenElsewhere()
    const dataDir = mkdtempSync(join(tmpdir(), 'tickdesk-e2e-keyhost-'))
    const stores = openDataStores(dataDir)
    const settings = (await stores.settings.load()).value
    await stores.settings.save({ ...settings, baseUrl: sim.url, plan: 'pro' })
    const key = packRing(withKey(EMPTY_RING, new URL(sim.url).origin, sim.keys.pro))
    const desk = await openDeskInChromium(chromiumPath as string, {
      serve: async () => {
        const started = await startBrowserHost({
          dataDir,
          env: {},
          secretStore: memorySecretStore(key),
          demo: () => startDemoService(),
          logger: silentLogger,
          rendererDir: rendererDir(),
        })
        return {
          get url() {
            return started.host.launchUrl()
          },
          close: () => started.close(),
        }
      },
    })
    const { page } = desk
    const state = page.getByTestId('connection-state')
    const row = page.locator('tbody tr[data-key]').first()
    try {
      await expect.poll(() => state.textContent(), { timeout: 20_000 }).toBe('Live')
      await row
        .locator('[data-field="last"]')
        .filter({ hasText: /\d/ })
        .waitFor({ timeout: 20_000 })

      const bridge = await connectBridge(desk.env.url)
      await bridge.invoke('updateSettings', { baseUrl: elsewhere.url })
      bridge.close()

      await expect
        .poll(() => state.textContent(), { timeout: 10_000 })
        .toBe(`Stopped: ${KEY_WITHHELD}`)
      expect(await state.getAttribute('title')).toMatch(
        /127\.0\.0\.2:\d+.*enter the key again.*set the base URL back to http:\/\/127\.0\.0\.1:\d+/,
      )
      const notice = page.locator(`[data-notice="${KEY_WITHHELD}"]`)
      expect(await notice.textContent()).toMatch(/Live prices stopped: .*last real prices/)
      // Greyed as stale; the badge says the price is not current (carried-over quotes are
      // labelled as the store seeds them: Cached).
      await expect.poll(() => row.getAttribute('class'), { timeout: 10_000 }).toMatch(/\bstale\b/)
      expect(await row.getByTestId('source-badge').textContent()).toMatch(/Cached|Stale/)
      expect(await row.locator('[data-field="last"]').textContent()).toMatch(/\d/)
      expect(await page.getByTestId('demo-badge').count()).toBe(0)
      expect(keysSeen(elsewhere)).toEqual([])
    } finally {
      await desk.close()
      await sim.close()
      await elsewhere.close()
      rmSync(dataDir, { recursive: true, force: true })
    }
  }, 60_000)
})
