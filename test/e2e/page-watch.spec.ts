import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromiumOrSkip } from './chromium'
import { openDeskInChromium, type DeskInChromium } from './desk-in-chromium'
import { watchPage, type PageWatch } from './page-watch'

const chromiumPath = chromiumOrSkip()

/** Requests to /held-* are answered after 3 s: in flight long enough for a reload to cancel them. */
const HELD_MS = 3_000

describe.skipIf(!chromiumPath)(
  'the e2e page watch (Chromium): whose failure a failed request is',
  () => {
    let desk: DeskInChromium
    let watch: PageWatch

    beforeAll(async () => {
      desk = await openDeskInChromium(chromiumPath as string, {
        beforeLoad: (p) => (watch = watchPage(p)),
      })
      await desk.page.route('**/held-*', async (route) => {
        await new Promise((resolve) => setTimeout(resolve, HELD_MS))
        await route.fulfill({ body: 'late' }).catch(() => undefined)
      })
    })

    afterAll(async () => {
      await desk?.close()
    })

    it('lays a request the left document starts after leaving() at the test, not the page', async () => {
      const { page } = desk
      watch.leaving()
      // What an idle prefetch does when its moment comes between leaving() and the next commit.
      // The reload waits until the browser has sent all three: a fetch the page starts and a
      // reload right after can tear the document down before the request leaves it (seen in CI:
      // none of the three requested), and then there is nothing for the watch to judge.
      const sent = Promise.all([1, 2, 3].map((n) => page.waitForRequest(`**/held-${n}`)))
      await page.evaluate("for (const n of [1, 2, 3]) void fetch('/held-' + n).catch(() => {})")
      await sent
      await page.reload()
      await page.getByTestId('connection-state').waitFor({ timeout: 20_000 })
      expect(watch.requested.filter((u) => u.includes('/held-'))).toHaveLength(3)
      expect(watch.problems).toEqual([])
    })

    it('still counts a failed request of the document the test is on', async () => {
      const sent = desk.page.waitForRequest('**/held-next')
      await desk.page.evaluate("void fetch('/held-next').catch(() => {})")
      await sent
      await desk.page.reload()
      await desk.page.getByTestId('connection-state').waitFor({ timeout: 20_000 })
      expect(watch.problems.filter((p) => p.includes('/held-next'))).toEqual([
        expect.stringContaining('net::ERR_ABORTED'),
      ])
    })
  },
)
