import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openDataStores } from '../../core/persistence/stores'
import type { FiredAlert } from '../../shared/alerts/alert'
import { startSimulator } from '../../sim'
import { appOnSim, appOnSimRun } from '../testing/app-on-sim'

/**
 * The new conditions end to end against the simulator on 127.0.0.1: a rule on a whole watchlist
 * and a moving-average cross (its 1m history fetched once from the simulator's klines) each fire
 * exactly once while the simulator's prices are pushed across them twice.
 */

const run = appOnSimRun()

const settle = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

describe('list-wide and moving-average alerts in the app', () => {
  it('each fire exactly once against the simulator', async () => {
    const s = (run.sim = await startSimulator({ port: 0, seed: 11, tickIntervalMs: 100 }))
    const dataDir = mkdtempSync(join(tmpdir(), 'tickdesk-app-conditions-'))
    await openDataStores(dataDir).watchlists.save({
      watchlists: [
        { id: 'L1', name: 'Movers', symbols: ['crypto:SOLUSDT', 'crypto:ETHUSDT', 'futures:ES1!'] },
      ],
      activeId: 'L1',
    })
    const a = (run.app = await appOnSim(s, dataDir))
    const fired: FiredAlert[] = []
    a.onAlertFired((alert) => void fired.push(alert))
    const quoteOf = (key: string): number | null => a.feed.engine.quotes.get(key)?.last ?? null
    await expect.poll(() => quoteOf('crypto:SOLUSDT'), { timeout: 15_000 }).not.toBeNull()
    await expect.poll(() => quoteOf('futures:ES1!'), { timeout: 15_000 }).not.toBeNull()

    const list = await a.invoke('addAlert', {
      key: '',
      listId: 'Movers',
      condition: { kind: 'movePct', pct: 3, minutes: 15 },
    })
    expect(list.ok).toBe(true)
    const ma = await a.invoke('addAlert', {
      key: 'futures:ES1!',
      condition: { kind: 'maCross', ma: 'sma', period: 5, interval: '1m', direction: 'up' },
    })
    expect(ma.ok).toBe(true)
    // The average's history: fetched once from the klines, not built over 5 minutes of ticks.
    await expect
      .poll(() => a.feed.engine.candles.bars('futures:ES1!', '1m', 5).length, { timeout: 10_000 })
      .toBe(5)

    const sol = quoteOf('crypto:SOLUSDT') as number
    for (let round = 0; round < 2; round++) {
      s.pinPrice('crypto', 'SOLUSDT', sol * 1.1)
      s.pinPrice('futures', 'ES1!', 4_000)
      await expect.poll(() => quoteOf('futures:ES1!'), { timeout: 15_000 }).toBe(4_000)
      s.pinPrice('futures', 'ES1!', 6_000)
      await expect.poll(() => quoteOf('futures:ES1!'), { timeout: 15_000 }).toBe(6_000)
      await expect.poll(() => quoteOf('crypto:SOLUSDT'), { timeout: 15_000 }).toBe(sol * 1.1)
      s.pinPrice('crypto', 'SOLUSDT', sol)
      await expect.poll(() => quoteOf('crypto:SOLUSDT'), { timeout: 15_000 }).toBe(sol)
    }
    await settle(1_000)
    const ruleIds = [list, ma].map((r) => (r.ok ? (r.result as { id: string }).id : ''))
    const byRule = (id: string): FiredAlert[] => fired.filter((f) => f.ruleId === id)
    // SOL's +10 % and ES1!'s fall to 4,000 each fire the list rule once; ETH never moved 3 %.
    expect(
      byRule(ruleIds[0] as string)
        .map((f) => f.key)
        .sort(),
    ).toEqual(['crypto:SOLUSDT', 'futures:ES1!'])
    expect(byRule(ruleIds[1] as string).map((f) => f.message)).toEqual([
      expect.stringMatching(/^ES1! crossed above the 5 SMA \(1m\) at [\d,.]+ \(6,000\)$/),
    ])
  }, 90_000)
})
