import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { INSTRUMENTS } from '../../src/sim/market/instruments'
import { chromiumOrSkip } from './chromium'
import { openDeskInChromium, type DeskInChromium } from './desk-in-chromium'

const chromiumPath = chromiumOrSkip()

/**
 * Every symbol of the shown list, in order. Rows out of view are not in the DOM (the grid renders
 * only what is on screen), so the grid's scroll pane is walked top to bottom, as a user scrolls,
 * then put back where it was.
 */
const rowKeys = (page: Page): Promise<string[]> =>
  page.evaluate(async () => {
    const frame = (): Promise<void> =>
      new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r())))
    const seen = (): Array<[number, string]> =>
      [...document.querySelectorAll('tbody tr[data-key]')].map((tr) => [
        Number(tr.getAttribute('aria-rowindex')),
        tr.getAttribute('data-key') ?? '',
      ])
    let pane = document.querySelector('table')?.parentElement ?? null
    while (pane && getComputedStyle(pane).overflowY !== 'auto') pane = pane.parentElement
    const byIndex = new Map<number, string>(seen())
    if (pane) {
      const start = pane.scrollTop
      for (let top = 0; top <= pane.scrollHeight; top += Math.max(1, pane.clientHeight / 2)) {
        pane.scrollTop = top
        await frame()
        for (const [i, key] of seen()) byIndex.set(i, key)
      }
      pane.scrollTop = start
      await frame()
    }
    return [...byIndex.entries()].sort((a, b) => a[0] - b[0]).map(([, key]) => key)
  })

describe.skipIf(!chromiumPath)(
  'search by name, pasting lists and the budget line in Chromium',
  () => {
    let desk: DeskInChromium
    let page: Page

    beforeAll(async () => {
      desk = await openDeskInChromium(chromiumPath as string, {
        context: {
          viewport: { width: 1280, height: 800 },
          permissions: ['clipboard-read', 'clipboard-write'],
        },
      })
      page = desk.page
    })

    afterAll(async () => {
      await desk?.close()
    })

    it('offers commodity:XAUUSD for "gold" and hk:00700 for "tencent", and adds by keyboard only', async () => {
      await page.keyboard.press('/')
      await page.keyboard.type('gold')
      const listbox = page.getByRole('listbox', { name: 'Instruments' })
      await expect
        .poll(() => listbox.getByRole('option').first().getAttribute('data-key'))
        .toBe('commodity:XAUUSD')
      expect(await listbox.getByRole('option').first().textContent()).toMatch(
        /Cmdty\s*XAUUSD\s*Gold spot/,
      )
      await page.keyboard.press('Control+A')
      await page.keyboard.type('tencent')
      await expect
        .poll(() => listbox.getByRole('option').first().getAttribute('data-key'))
        .toBe('hk:00700')
      expect(await listbox.getByRole('option').first().textContent()).toContain('Tencent Holdings')
      await page.keyboard.press('Enter')
      await expect.poll(() => rowKeys(page)).toContain('hk:00700')
      await expect.poll(() => page.getByTestId('add-report').textContent()).toBe('Added hk:00700.')
      expect(await page.getByRole('combobox', { name: 'Add symbol' }).inputValue()).toBe('')
    })

    it('finds "btc", "600519", "es" and "s&p" and moves through options with the arrows', async () => {
      const box = page.getByRole('combobox', { name: 'Add symbol' })
      const first = page.getByRole('listbox').getByRole('option').first()
      for (const [query, key] of [
        ['btc', 'crypto:BTCUSDT'],
        ['600519', 'cn:600519'],
        ['es', 'futures:ES1!'],
        ['s&p', 'index:SPX'],
      ] as const) {
        await box.fill(query)
        await expect.poll(() => first.getAttribute('data-key'), { timeout: 5000 }).toBe(key)
      }
      await page.keyboard.press('ArrowDown')
      const chosen = page.getByRole('listbox').getByRole('option').nth(1)
      expect(await chosen.getAttribute('aria-selected')).toBe('true')
      expect(await box.getAttribute('aria-activedescendant')).toBe(await chosen.getAttribute('id'))
      await page.keyboard.press('Escape')
      expect(await page.getByRole('listbox').count()).toBe(0)
      await box.fill('')
    })

    it('lists the matches of a keystroke before the host could have answered it', async () => {
      const box = page.getByRole('combobox', { name: 'Add symbol' })
      await box.fill('')
      await box.focus()
      // Typed and read back within one task: the host's answer (a socket message, a task of
      // its own) cannot have arrived, so what is listed was found in the page.
      const listed = await page.evaluate(async () => {
        const input = document.querySelector<HTMLInputElement>('#add-symbol-input')
        if (input === null) throw new Error('no add box')
        input.value = 'tencent'
        input.dispatchEvent(new InputEvent('input', { bubbles: true }))
        for (let i = 0; i < 20; i++) await Promise.resolve()
        return [...document.querySelectorAll('#symbol-search-listbox [role="option"]')].map((o) =>
          o.getAttribute('data-key'),
        )
      })
      expect(listed[0]).toBe('hk:00700')
      // The host's answer, when it comes, agrees: the same options stay.
      await page.waitForTimeout(300)
      expect(
        await page
          .getByRole('listbox')
          .getByRole('option')
          .evaluateAll((os) => os.map((o) => o.getAttribute('data-key'))),
      ).toEqual(listed)
      await box.fill('')
    })

    it('adds what was typed on Enter, unless the arrows moved to an option', async () => {
      const box = page.getByRole('combobox', { name: 'Add symbol' })
      const options = page.getByRole('listbox').getByRole('option')
      await box.focus()
      await page.keyboard.type('crypto:ETH')
      await expect.poll(() => options.first().getAttribute('data-key')).toBe('crypto:ETHUSDT')
      await page.keyboard.press('Enter')
      // The service is asked about crypto:ETH itself (and does not list it).
      await expect
        .poll(() => page.getByTestId('add-report').textContent(), { timeout: 20_000 })
        .toMatch(/crypto:ETH\b(?!USDT)/)
      expect(await rowKeys(page)).not.toContain('crypto:ETH')
      await page.keyboard.type('crypto:ETH')
      await expect.poll(() => options.first().getAttribute('data-key')).toBe('crypto:ETHUSDT')
      await page.keyboard.press('ArrowDown')
      await page.keyboard.press('Enter')
      await expect.poll(() => rowKeys(page)).toContain('crypto:ETHUSDT')
    })

    it('shows a typed symbol at once, pending, and takes it away with the reason when the service does not list it', async () => {
      // Whether a pending row for it was ever in the DOM, and before any answer came (the
      // report below the field is what the answer writes).
      await page.evaluate(() => {
        const seen = { pendingRow: false, beforeReport: false }
        Object.assign(globalThis, { __pendingSeen: seen })
        new MutationObserver(() => {
          const row = document.querySelector('tr[data-key="crypto:NOTLISTED"][aria-busy="true"]')
          if (row === null || seen.pendingRow) return
          seen.pendingRow = /adding/.test(row.textContent ?? '')
          seen.beforeReport = !/NOTLISTED/.test(
            document.querySelector('[data-testid="add-report"]')?.textContent ?? '',
          )
        }).observe(document.body, { subtree: true, childList: true, attributes: true })
      })
      const before = await rowKeys(page)
      await page.getByRole('combobox', { name: 'Add symbol' }).fill('crypto:NOTLISTED')
      await page.keyboard.press('Enter')
      await expect
        .poll(() => page.getByTestId('add-report').textContent(), { timeout: 20_000 })
        .toMatch(/crypto:NOTLISTED \(Unknown symbol/)
      expect(await page.getByTestId('add-report').getAttribute('role')).toBe('alert')
      expect(
        await page.evaluate(
          () => (globalThis as unknown as { __pendingSeen: unknown }).__pendingSeen,
        ),
      ).toEqual({ pendingRow: true, beforeReport: true })
      await expect.poll(() => rowKeys(page)).toEqual(before)
    })

    it('adds all 20 symbols of a pasted list and says so', async () => {
      await page.getByRole('button', { name: 'Watchlist actions' }).click()
      await page.getByRole('menuitem', { name: 'New list…' }).click()
      await page.getByLabel('New watchlist name').fill('Pasted')
      await page.keyboard.press('Enter')
      await expect.poll(() => rowKeys(page)).toEqual([])
      const keys = INSTRUMENTS.filter((i) => i.market !== 'agri')
        .slice(0, 20)
        .map((i) => `${i.market}:${i.symbol}`)
      const text = `${keys.slice(0, 8).join('\n')}\n${keys.slice(8, 14).join(', ')}\n${keys.slice(14).join(' ')}`
      await page.evaluate((t) => navigator.clipboard.writeText(t), text)
      await page.getByRole('combobox', { name: 'Add symbol' }).focus()
      await page.keyboard.press('Control+V')
      await expect.poll(() => rowKeys(page), { timeout: 20_000 }).toEqual(keys)
      await expect.poll(() => page.getByTestId('add-report').textContent()).toMatch(/^Added 20: /)
    })

    it('says which pasted entries it could not add, and why', async () => {
      await page.evaluate(() =>
        navigator.clipboard.writeText('crypto:NOSUCHCOIN, gibberish\nfx:EURUSD'),
      )
      await page.getByRole('combobox', { name: 'Add symbol' }).focus()
      await page.keyboard.press('Control+V')
      const report = page.getByTestId('add-report')
      await expect
        .poll(() => report.textContent(), { timeout: 20_000 })
        .toMatch(/Added 1: fx:EURUSD/)
      const text = (await report.textContent()) ?? ''
      expect(text).toMatch(/Not added 2: crypto:NOSUCHCOIN \(Unknown symbol[^)]*\)*, gibberish/)
    })

    it('keeps what is typed ahead while adds are still being answered', async () => {
      const before = await rowKeys(page)
      const box = page.getByRole('combobox', { name: 'Add symbol' })
      await box.focus()
      const typed = ['hk:09988', 'hk:03690', 'cn:000001', 'cn:601318', 'index:NDX', 'index:HSI']
      for (const key of typed) {
        await page.keyboard.type(key, { delay: 5 })
        await page.keyboard.press('Enter')
      }
      await page.keyboard.type('index:DJ', { delay: 5 })
      await expect.poll(() => rowKeys(page), { timeout: 20_000 }).toEqual([...before, ...typed])
      expect(await box.inputValue()).toBe('index:DJ')
      await box.fill('')
    })

    it('updates the budget line when a symbol is added', async () => {
      const words = page.getByTestId('budget-words')
      // On Pro everything this list holds fits the stream (50 symbols): nothing is polled.
      const streamed = (await rowKeys(page)).length
      await expect
        .poll(() => words.textContent())
        .toBe(`this list: ${streamed} streamed · 0 polled · 0/540 req/min`)
      await page.getByRole('combobox', { name: 'Add symbol' }).fill('agri:ZC1!')
      await page.keyboard.press('Enter')
      // Agriculture never streams (it has no quote endpoint): one polled symbol more; while CBOT
      // is closed (its daily break, nights, weekends) it is counted apart, asked every ~5 min.
      await expect
        .poll(() => words.textContent(), { timeout: 10_000 })
        .toMatch(
          new RegExp(
            `^this list: ${streamed} streamed · (1 polled every ~\\d+ s|0 polled · 1 closed, asked every ~\\d+ min) · \\d+/540 req/min$`,
          ),
        )
    })
  },
)
