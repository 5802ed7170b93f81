import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { AlertRule, FiredAlert } from '../../shared/alerts/alert'
import type { BridgeEvent } from '../../shared/bridge'
import { startSimulator } from '../../sim'
import { appOnSim, appOnSimRun } from '../testing/app-on-sim'

/**
 * An alert line dragged on the chart after it fired (moveAlertLevel): against the simulator on
 * 127.0.0.1, the once-alert is armed again at the new level, the renderer is told so, and it fires
 * once more when the price gets there.
 */

const run = appOnSimRun()

describe('moving a fired alert line', () => {
  it('re-arms a triggered once-alert at its new level, and it fires there once', async () => {
    const s = (run.sim = await startSimulator({ port: 0, seed: 5, tickIntervalMs: 100 }))
    const dataDir = mkdtempSync(join(tmpdir(), 'tickdesk-app-move-'))
    const a = (run.app = await appOnSim(s, dataDir))
    const fired: FiredAlert[] = []
    a.onAlertFired((alert) => void fired.push(alert))
    const events: BridgeEvent[] = []
    a.subscribe((e) => events.push(e))
    const added = await a.invoke('addAlert', {
      key: 'crypto:SOLUSDT',
      condition: { kind: 'above', price: 400 },
    })
    if (!added.ok) throw new Error(JSON.stringify(added.error))
    const id = (added.result as AlertRule).id
    const status = (): string | undefined =>
      a.snapshot().alertStates.find((st) => st.ruleId === id)?.status

    s.pinPrice('crypto', 'SOLUSDT', 404)
    await expect.poll(() => fired.length, { timeout: 15_000 }).toBe(1)
    expect(status()).toBe('triggered')

    const moved = await a.invoke('moveAlertLevel', { id, price: 420 })
    expect(moved.ok).toBe(true)
    expect(status()).toBe('armed')
    const told = events.filter((e) => e.type === 'alerts').at(-1)
    expect(
      told?.type === 'alerts' && told.alertStates.find((st) => st.ruleId === id),
    ).toMatchObject({ status: 'armed' })
    // Still above the old level, below the new one: nothing.
    await new Promise((r) => setTimeout(r, 1_000))
    expect(fired).toHaveLength(1)

    s.pinPrice('crypto', 'SOLUSDT', 425)
    await expect.poll(() => fired.length, { timeout: 15_000 }).toBe(2)
    expect(fired[1]?.message).toMatch(/420/)
    expect(status()).toBe('triggered')
    s.pinPrice('crypto', 'SOLUSDT', 430)
    await new Promise((r) => setTimeout(r, 1_000))
    expect(fired).toHaveLength(2)
  }, 60_000)
})
