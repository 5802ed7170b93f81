import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { AlertRule } from '../../shared/alerts/alert'
import type { BridgeEvent } from '../../shared/bridge'
import type { Drawing } from '../../shared/drawings/drawing'
import { startSimulator } from '../../sim'
import { appOnSim, appOnSimRun, okResult } from '../testing/app-on-sim'

/**
 * Drawings in the app, on the simulator and a real temp folder: saved in drawings.json and read
 * back by the next start, alerts made from the drawing as saved, following it when it moves and
 * going with it, a damaged file moved aside and reported.
 */
const run = appOnSimRun()
const KEY = 'crypto:BTCUSDT'
const HOUR = 3_600_000

const trend = (id: string, from: number, p1: number, p2: number): Drawing => ({
  kind: 'line',
  id,
  line: { shape: 'trend', a: { t: from, price: p1 }, b: { t: from + HOUR, price: p2 } },
})

async function started(dataDir = mkdtempSync(join(tmpdir(), 'tickdesk-drawings-'))) {
  run.sim ??= await startSimulator({ port: 0, seed: 3 })
  run.app = await appOnSim(run.sim, dataDir)
  return { app: run.app, dataDir }
}

describe('drawings in the app', () => {
  it('keeps a chart’s drawings in drawings.json; the next start reads them back', async () => {
    const { app, dataDir } = await started()
    const events: BridgeEvent[] = []
    app.subscribe((e) => e.type === 'drawings' && events.push(e))
    const d = trend('t1', Date.UTC(2026, 10, 27, 9), 80_000, 81_000)
    await okResult(
      app.invoke('saveDrawings', { key: 'crypto:btcusdt', family: 'intraday', drawings: [d] }),
    )
    expect(events).toEqual([{ type: 'drawings', key: KEY, family: 'intraday', drawings: [d] }])
    await app.close()
    run.app = null
    const again = await started(dataDir)
    const got = await okResult(
      again.app.invoke('getDrawings', { keys: [KEY, 'fx:EURUSD'], family: 'intraday' }),
    )
    expect(got).toEqual([
      { key: KEY, family: 'intraday', drawings: [d] },
      { key: 'fx:EURUSD', family: 'intraday', drawings: [] },
    ])
    const daily = await okResult(again.app.invoke('getDrawings', { keys: [KEY], family: 'daily' }))
    expect(daily).toEqual([{ key: KEY, family: 'daily', drawings: [] }])
  })

  it('makes an alert from the drawing as saved; it follows the drawing moved and goes with it', async () => {
    const { app } = await started()
    const t0 = Date.UTC(2026, 10, 27, 9)
    await okResult(
      app.invoke('saveDrawings', {
        key: KEY,
        family: 'intraday',
        drawings: [trend('t1', t0, 1, 2)],
      }),
    )
    const rule = await okResult<AlertRule>(
      app.invoke('addDrawingAlert', {
        key: KEY,
        family: 'intraday',
        drawingId: 't1',
        interval: '5m',
      }),
    )
    expect(rule.condition).toMatchObject({
      kind: 'lineCross',
      drawing: { id: 't1' },
      interval: '5m',
    })
    // Made for this process's service, as a level alert is: judged only there.
    expect(rule.service).toEqual(app.alertService())
    const moved = trend('t1', t0, 3, 4)
    const saved = await okResult<{ alertsMoved: number; alertsRemoved: number }>(
      app.invoke('saveDrawings', { key: KEY, family: 'intraday', drawings: [moved] }),
    )
    expect(saved).toMatchObject({ alertsMoved: 1, alertsRemoved: 0 })
    expect(app.rules.find((r) => r.id === rule.id)?.condition).toMatchObject({
      line: moved.kind === 'line' ? moved.line : null,
    })
    const gone = await okResult<{ alertsRemoved: number }>(
      app.invoke('saveDrawings', { key: KEY, family: 'intraday', drawings: [] }),
    )
    expect(gone.alertsRemoved).toBe(1)
    expect(app.rules.some((r) => r.id === rule.id)).toBe(false)
  })
})

describe('drawings in the app: what is refused, what is kept', () => {
  it('refuses an alert on a drawing sent as geometry, on a drawing not there, and on a range that is over', async () => {
    const { app } = await started()
    // Over by the app's clock (the system's, here), whatever day the suite runs: a fixed date was
    // not yet over under a March clock (npm run test:calendar, dst-change).
    const t0 = Date.now() - 2 * HOUR
    const sent = await app.invoke('addAlert', {
      key: KEY,
      condition: {
        kind: 'lineCross',
        drawing: { id: 'x', family: 'intraday' },
        line: { shape: 'hline', price: 1 },
        interval: '5m',
      },
    })
    expect(sent).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } })
    const missing = await app.invoke('addDrawingAlert', {
      key: KEY,
      family: 'intraday',
      drawingId: 'nope',
      interval: '5m',
    })
    expect(missing).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } })
    const over: Drawing = {
      kind: 'range',
      id: 'r1',
      range: { from: t0, to: t0 + HOUR, low: 1, high: 2 },
    }
    await okResult(app.invoke('saveDrawings', { key: KEY, family: 'intraday', drawings: [over] }))
    const late = await app.invoke('addDrawingAlert', {
      key: KEY,
      family: 'intraday',
      drawingId: 'r1',
      interval: '5m',
      on: 'enter',
    })
    expect(late).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } })
    expect(app.rules).toEqual([])
  })

  it('keeps both charts when two are saved at once', async () => {
    const { app, dataDir } = await started()
    const t0 = Date.UTC(2026, 10, 27, 9)
    await Promise.all([
      okResult(
        app.invoke('saveDrawings', {
          key: KEY,
          family: 'intraday',
          drawings: [trend('a', t0, 1, 2)],
        }),
      ),
      okResult(
        app.invoke('saveDrawings', {
          key: 'fx:EURUSD',
          family: 'daily',
          drawings: [trend('b', t0, 1, 2)],
        }),
      ),
    ])
    const file = JSON.parse(readFileSync(join(dataDir, 'drawings.json'), 'utf8')) as {
      data: { charts: Record<string, unknown> }
    }
    expect(Object.keys(file.data.charts).sort()).toEqual([`${KEY}|intraday`, 'fx:EURUSD|daily'])
  })
})

describe('drawings in the app: a damaged file', () => {
  it('moves a damaged drawings.json aside, says so and restores the last good version', async () => {
    const { app, dataDir } = await started()
    const t0 = Date.UTC(2026, 10, 27, 9)
    const first = [trend('a', t0, 1, 2)]
    await okResult(app.invoke('saveDrawings', { key: KEY, family: 'intraday', drawings: first }))
    await okResult(
      app.invoke('saveDrawings', {
        key: KEY,
        family: 'intraday',
        drawings: [...first, trend('b', t0, 2, 3)],
      }),
    )
    await app.close()
    run.app = null
    writeFileSync(
      join(dataDir, 'drawings.json'),
      '{"version":1,"data":{"charts":{"x|intraday":[{"kind"',
    )
    const again = await started(dataDir)
    const got = await okResult<Array<{ drawings: Drawing[] }>>(
      again.app.invoke('getDrawings', { keys: [KEY], family: 'intraday' }),
    )
    expect(got[0]?.drawings).toEqual(first)
    expect(
      again.app
        .snapshot()
        .notices.map((n) => n.message)
        .join(' '),
    ).toMatch(/drawings\.json was damaged .* Restored the last good version/)
    expect(readdirSync(dataDir).some((f) => f.startsWith('drawings.corrupt-'))).toBe(true)
    expect(existsSync(join(dataDir, 'drawings.json'))).toBe(true)
  })
})
