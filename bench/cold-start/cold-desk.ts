import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createAppService, memorySecretStore } from '../../src/app'
import { startDemoService, startSimulator } from '../../src/sim'
import { INSTRUMENTS } from '../../src/sim/market/instruments'
import { silentLogger } from '../../src/core/log'
import type { startBrowserHost } from '../../src/web'
import { sleep } from '../chromium-page'

/** The active list's size in every cold start bench. */
export const SYMBOLS = 30

/** What a cold start starts from: a data folder a session left, the service down. */
export interface ColdDesk {
  /** startBrowserHost's options on that folder. */
  host: Parameters<typeof startBrowserHost>[0]
  /** How many rows the active list shows. */
  rows: number
  /** Stops the simulator and removes the folder. */
  close(): Promise<void>
}

/**
 * Session 1: a 30-symbol list gets live prices, then closes (which writes the quote cache).
 * Resolves to how many rows the list shows.
 */
export async function warmQuoteCache(
  opts: Parameters<typeof createAppService>[0],
): Promise<number> {
  const first = await createAppService(opts)
  const keys = INSTRUMENTS.filter((i) => i.market !== 'agri')
    .slice(0, SYMBOLS)
    .map((i) => `${i.market}:${i.symbol}`)
  const listId = first.lists.activeId ?? first.lists.watchlists[0]?.id ?? ''
  await first.invoke('addSymbols', { id: listId, inputs: keys })
  const shown = first.lists.watchlists.find((w) => w.id === listId)?.symbols ?? []
  const unpriced = (): boolean => shown.some((k) => first.feed.engine.quotes.get(k)?.last == null)
  for (let i = 0; i < 100 && unpriced(); i++) await sleep(200)
  await first.close()
  return shown.length
}

/**
 * A data folder with a warm quote cache, and the simulator that served it taken down, so what
 * the rows show at the next start can only come from the cache.
 */
export async function coldDesk(rendererDir: string): Promise<ColdDesk> {
  const sim = await startSimulator({ seed: 7, tickIntervalMs: 250 })
  const dataDir = mkdtempSync(join(tmpdir(), 'tickdesk-bench-cold-'))
  const close = async (): Promise<void> => {
    await sim.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
  try {
    const opts = {
      dataDir,
      env: { TICKDESK_BASE_URL: sim.url, TICKDESK_PLAN: 'pro' },
      secretStore: memorySecretStore(sim.keys.pro),
      demo: (): ReturnType<typeof startDemoService> => startDemoService(),
    }
    const rows = await warmQuoteCache(opts)
    sim.faults.down()
    return { host: { ...opts, logger: silentLogger, rendererDir }, rows, close }
  } catch (e) {
    await close()
    throw e
  }
}
