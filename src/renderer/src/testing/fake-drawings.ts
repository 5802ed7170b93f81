import type { BridgeEvent, Snapshot } from '../../../shared/bridge'
import { chartId, drawingName, type Drawing } from '../../../shared/drawings/drawing'
import { drawingCondition, followDrawings } from '../../../shared/drawings/drawing-alerts'
import { BridgeError } from '../bridge/bridge-error'
import { canonicalKey } from './fake-lists'
import { alertRule } from './fake-snapshot'

/** What of the fake host the drawing commands change: its alerts, its events. */
export interface FakeDrawingHost {
  snapshot(): Snapshot
  emit(event: BridgeEvent): void
  emitAlerts(): void
  newAlertId(): string
  now(): number
}

/**
 * The fake host's drawings, kept in memory, answering as the app's drawing commands do
 * (src/app/drawings/drawing-commands.ts, held to it by test/contract): alerts on a drawing follow
 * it when it is saved moved and go with it when it is saved gone.
 */
export function fakeDrawingHandlers(host: FakeDrawingHost) {
  const charts = new Map<string, Drawing[]>()
  return {
    getDrawings: ({ keys, family }: { keys: string[]; family: 'intraday' | 'daily' }) =>
      keys.map((k) => {
        const key = canonicalKey(k)
        return { key, family, drawings: charts.get(chartId(key, family)) ?? [] }
      }),
    saveDrawings: (p: { key: string; family: 'intraday' | 'daily'; drawings: Drawing[] }) => {
      const key = canonicalKey(p.key)
      charts.set(chartId(key, p.family), p.drawings)
      host.emit({ type: 'drawings', key, family: p.family, drawings: p.drawings })
      const next = followDrawings(host.snapshot().alerts, {
        key,
        family: p.family,
        drawings: p.drawings,
      })
      if (next.moved + next.removed > 0) {
        const kept = new Set(next.rules.map((r) => r.id))
        host.snapshot().alerts = next.rules
        host.snapshot().alertStates = host.snapshot().alertStates.filter((s) => kept.has(s.ruleId))
        host.emitAlerts()
      }
      return { drawings: p.drawings, alertsMoved: next.moved, alertsRemoved: next.removed }
    },
    addDrawingAlert: (p: {
      key: string
      family: 'intraday' | 'daily'
      drawingId: string
      interval: Parameters<typeof drawingCondition>[1]['interval']
      direction: 'up' | 'down' | 'any'
      on: 'enter' | 'exit'
      repeat: 'once' | 'rearm'
    }) => {
      const key = canonicalKey(p.key)
      const d = charts.get(chartId(key, p.family))?.find((x) => x.id === p.drawingId)
      if (d === undefined)
        throw new BridgeError('NOT_FOUND', 'that drawing is no longer on the chart')
      if (d.kind === 'range' && d.range.to !== null && d.range.to < host.now())
        throw new BridgeError('INVALID_INPUT', `the ${drawingName(d)} is over`)
      const rule = alertRule(drawingCondition(d, p), {
        id: host.newAlertId(),
        key,
        repeat: p.repeat,
      })
      host.snapshot().alerts.push(rule)
      host.snapshot().alertStates.push({
        ruleId: rule.id,
        status: 'armed',
        lastFiredAt: null,
        lastPrice: null,
        lastSeenAt: null,
      })
      host.emitAlerts()
      return rule
    },
  }
}
