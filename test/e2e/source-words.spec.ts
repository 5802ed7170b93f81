import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromiumOrSkip } from './chromium'
import { openDeskInChromium, type DeskInChromium } from './desk-in-chromium'

const chromiumPath = chromiumOrSkip()

/**
 * A list over every kind of venue: lunch breaks, daily halts, week-long holidays, 24/7 (no agri:
 * its price comes from candles, and does not move between them).
 */
const KEYS = [
  'hk:00700',
  'cn:600519',
  'futures:ES1!',
  'index:SPX',
  'index:N225',
  'index:DAX',
  'fx:EURUSD',
  'commodity:XAUUSD',
  'crypto:BTCUSDT',
  'usdt-futures:ETHUSDT',
]

/** Elements of Source cells whose content is wider than they are (text cut or ellipsised). */
function cutSourceCells(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = []
    for (const td of document.querySelectorAll<HTMLElement>('table.watchlist tbody td.source')) {
      const key = td.closest('tr')?.dataset.key ?? '?'
      for (const el of [td, ...td.querySelectorAll<HTMLElement>('*')])
        if (el.scrollWidth > el.clientWidth)
          out.push(`${key} "${td.textContent?.trim()}": ${el.scrollWidth} > ${el.clientWidth}`)
    }
    return out
  })
}

const badgeOf = (page: Page, key: string): Promise<string> =>
  page.locator(`tbody tr[data-key="${key}"] [data-testid="source-badge"]`).innerText()
const noteOf = (page: Page, key: string): Promise<string> =>
  page.locator(`tbody tr[data-key="${key}"] [data-testid="source-badge"] + span`).innerText()

describe.skipIf(!chromiumPath)(
  'the Source column never cuts its words (Chromium, 1440x900)',
  () => {
    let desk: DeskInChromium
    let page: Page

    beforeAll(async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'tickdesk-source-'))
      const lists = {
        watchlists: [{ id: 'world', name: 'World', symbols: KEYS }],
        activeId: 'world',
      }
      writeFileSync(join(dataDir, 'watchlists.json'), JSON.stringify({ version: 1, data: lists }))
      desk = await openDeskInChromium(chromiumPath as string, {
        context: { viewport: { width: 1440, height: 900 } },
        host: { dataDir },
      })
      page = desk.page
      await page.locator('tbody tr[data-key="crypto:BTCUSDT"]').waitFor({ timeout: 20_000 })
    })
    afterAll(async () => {
      await desk?.close()
    })

    // The page's clock at moments chosen for their words, and what one row says then.
    const MOMENTS: { at: string; what: string; key: string; badge: string; note: string }[] = [
      {
        at: '2026-11-28T04:00:00Z',
        what: 'a Saturday',
        key: 'hk:00700',
        badge: 'Closed',
        note: 'Mon 09:30',
      },
      {
        at: '2026-12-02T04:30:00Z',
        what: 'lunch in Hong Kong',
        key: 'hk:00700',
        badge: 'Lunch',
        note: '13:00',
      },
      {
        at: '2026-12-02T22:30:00Z',
        what: "CME's daily halt",
        key: 'futures:ES1!',
        badge: 'Halt',
        note: '17:00',
      },
      {
        at: '2026-10-01T03:00:00Z',
        what: 'Golden Week',
        key: 'cn:600519',
        badge: 'Closed',
        note: '8 Oct',
      },
    ]

    for (const m of MOMENTS)
      it(`keeps every Source cell whole on ${m.what}, in both densities`, async () => {
        // The page's clock is set before it loads (the app reads its time from the page).
        const at = await desk.browser.newPage({ viewport: { width: 1440, height: 900 } })
        try {
          await at.clock.setFixedTime(new Date(m.at))
          await at.goto(desk.env.host.launchUrl())
          await at.locator(`tbody tr[data-key="${m.key}"]`).waitFor({ timeout: 20_000 })
          await expect.poll(() => badgeOf(at, m.key), { timeout: 10_000 }).toBe(m.badge)
          expect(await noteOf(at, m.key)).toBe(m.note)
          for (const density of ['comfortable', 'compact'] as const) {
            await desk.env.app.invoke('updateSettings', { grid: { density } })
            await at.locator(`table.watchlist.${density}`).waitFor()
            expect(await cutSourceCells(at), `${m.what}, ${density}`).toEqual([])
          }
        } finally {
          await at.close()
        }
      })

    it('believes a feed that trades while the timetable says shut: off-hours, never Closed beside a moving price', async () => {
      // This host's simulator trades every market around the clock (no timetable given), as a
      // service with other hours would; at any hour some venue of the list is shut by its timetable.
      const offHours = page.locator('[data-testid="outside-hours"]')
      await expect.poll(() => offHours.count(), { timeout: 20_000 }).toBeGreaterThan(0)
      // Every row's price moves here, so once each has moved none says Closed.
      const notTrading = (): Promise<string[]> =>
        page.evaluate(() =>
          [...document.querySelectorAll<HTMLElement>('tbody tr[data-key]')]
            .map(
              (tr) =>
                `${tr.dataset.key} ${tr.querySelector('[data-testid="source-badge"]')?.textContent}`,
            )
            .filter((t) => !/ (Live|Polled)$/.test(t)),
        )
      await expect.poll(notTrading, { timeout: 20_000 }).toEqual([])
      const td = offHours.first().locator('xpath=ancestor::td')
      await td.hover()
      expect(await td.getAttribute('title')).toMatch(/^Trading outside listed hours: /)
      for (const density of ['comfortable', 'compact'] as const) {
        await desk.env.app.invoke('updateSettings', { grid: { density } })
        await page.locator(`table.watchlist.${density}`).waitFor()
        expect(await cutSourceCells(page), density).toEqual([])
      }
    })
  },
)
