import type { Page } from 'playwright-core'
import type { BridgeClient } from '../../test/e2e/bridge-client'
import { MAX_SYMBOLS_PER_LIST } from '../../src/shared/watchlist'
import { GRID, type Recorder } from './biglist-recorder'

/**
 * The biglist bench's actions, as a trader does them: switch lists by their tab, cycle the Symbol
 * sort, type a search, add a symbol by Enter. Each is timed through the Recorder when `timed`.
 */

/** The big list's size: the most symbols a list may hold. */
export const BIG = MAX_SYMBOLS_PER_LIST

export const rowCount = (page: Page): Promise<number> =>
  page.evaluate(
    (table) => Number(document.querySelector(table)?.getAttribute('aria-rowcount')) - 1,
    GRID.table,
  )

export async function untilRows(page: Page, rows: number): Promise<void> {
  await page.waitForFunction(
    ([table, n]) => Number(document.querySelector(table)?.getAttribute('aria-rowcount')) - 1 === n,
    [GRID.table, rows] as const,
    { timeout: 15_000 },
  )
}

export async function switchTo(
  page: Page,
  rec: Recorder,
  name: string,
  rows: number,
  timed: boolean,
) {
  const tab = page.getByRole('tab', { name, exact: true })
  await rec.time('click', { kind: 'rows', rows }, () => tab.click(), timed)
}

/** Clicks the Symbol header through ascending, descending and the list's own order. */
export async function sortCycle(
  page: Page,
  rec: Recorder,
  keys: readonly string[],
  timed: boolean,
) {
  const sorted = [...keys].sort((a, b) => a.localeCompare(b))
  const steps = [
    { sort: 'ascending', key: sorted[0] },
    { sort: 'descending', key: sorted.at(-1) },
    { sort: 'none', key: keys[0] },
  ] as const
  const header = page.locator(GRID.sortButton).first()
  for (const s of steps)
    await rec.time(
      'click',
      { kind: 'first', key: s.key as string, sort: s.sort },
      () => header.click(),
      timed,
    )
}

export async function searchOnce(page: Page, rec: Recorder, query: string, timed: boolean) {
  const box = page.getByLabel('Add symbol')
  await box.fill('')
  await page.waitForFunction(
    () => document.querySelectorAll('#symbol-search-listbox [role="option"]').length === 0,
  )
  await box.focus()
  await rec.time('input', { kind: 'options' }, () => page.keyboard.insertText(query), timed)
}

export async function addOnce(
  page: Page,
  rec: Recorder,
  bridge: BridgeClient,
  key: string,
  timed: boolean,
) {
  await bridge.invoke('removeSymbol', { id: 'big', key })
  await untilRows(page, BIG - 1)
  const box = page.getByLabel('Add symbol')
  await box.fill(key)
  await rec.time('keydown', { kind: 'rows', rows: BIG }, () => page.keyboard.press('Enter'), timed)
  // The row shows before the host has answered (a pending add): the next removal waits for the
  // answer, or it would come before the add it is meant to undo.
  await page.getByText('Adding…').waitFor({ state: 'detached', timeout: 15_000 })
}
