import { describe, expect, it } from 'vitest'
import { chromiumOrSkip } from './chromium'
import { openDeskInChromium } from './desk-in-chromium'
import { startHostUnderTest } from './in-process-host'

const chromiumPath = chromiumOrSkip()

/**
 * The browser host's launch code outlives its use no longer. Opened from a launch address, the
 * page ends up at an address without the code (so it is not in the address bar or the history),
 * the code is spent (another browser that copies the address gets nothing), and the desk still
 * talks to the host: the bridge rides on the per-port HttpOnly session cookie, a value no address
 * ever held.
 */
describe.skipIf(!chromiumPath)('the browser host’s launch code (Chromium)', () => {
  it('leaves the address bar and the history, works once, and the desk still connects and answers', async () => {
    const host = await startHostUnderTest()
    const launch = host.url
    const code = new URL(launch).searchParams.get('token') ?? 'none'
    const desk = await openDeskInChromium(chromiumPath as string, {
      serve: async () => ({ url: launch, close: () => host.close() }),
    })
    try {
      const { page } = desk
      expect(page.url()).toBe(`http://127.0.0.1:${host.host.port}/`)
      const history = await page.evaluate(() => [window.location.href, document.referrer])
      expect(history.join(' ')).not.toContain(code)
      await expect
        .poll(() => page.getByTestId('connection-state').textContent(), { timeout: 20_000 })
        .toMatch(/live|demo|connect/i)
      // Rows with prices: the bridge carried a snapshot and quotes with no code in any URL.
      await page.locator('[data-key]').first().waitFor({ timeout: 20_000 })
      const cookies = await page.context().cookies()
      expect(cookies.map((c) => [c.name, c.httpOnly, c.sameSite])).toEqual([
        [`tickdesk_session_${host.host.port}`, true, 'Strict'],
      ])
      expect(cookies[0]?.value).not.toBe(code)
      // A reload keeps working on the cookie alone.
      await page.reload()
      await page.locator('[data-key]').first().waitFor({ timeout: 20_000 })
      expect(page.url()).not.toContain(code)
      // The same address in another browser (a copied link, a history entry) is refused.
      const other = await desk.openPage({ url: null, context: {} })
      const again = await other.goto(launch)
      expect(again?.status()).toBe(403)
      expect(await other.locator('[data-key]').count()).toBe(0)
      await other.close()
    } finally {
      await desk.close()
    }
  }, 60_000)
})
