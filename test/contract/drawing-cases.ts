import type { ContractCase } from './contract-cases'

/**
 * The drawing commands' cases (src/app/drawings, and the renderer's fake-drawings.ts): a chart's
 * drawings saved and read, an alert on one of them, the alert following the drawing moved and
 * going with it. In order, on the state the alert cases before them left.
 */
const KEY = 'crypto:BTCUSDT'
const T0 = Date.UTC(2026, 10, 27, 9)
const line = (p1: number, p2: number) => ({
  kind: 'line',
  id: 't1',
  line: { shape: 'trend', a: { t: T0, price: p1 }, b: { t: T0 + 3_600_000, price: p2 } },
})
const counts = (r: unknown): unknown => {
  const s = r as { alertsMoved: number; alertsRemoved: number; drawings: unknown[] }
  return [s.drawings.length, s.alertsMoved, s.alertsRemoved]
}

function row(
  command: string,
  name: string,
  params: unknown,
  outcome: string | ((r: unknown) => unknown),
): ContractCase {
  return {
    command,
    name,
    params: () => params,
    ...(typeof outcome === 'string' ? { expect: outcome } : { view: outcome }),
  }
}

export const DRAWING_CASES: ContractCase[] = [
  row('getDrawings', 'a chart with none', { keys: [KEY], family: 'intraday' }, (r) => r),
  row('getDrawings', 'an unknown family', { keys: [KEY], family: 'weekly' }, 'INVALID_INPUT'),
  row(
    'saveDrawings',
    'a trend line',
    { key: 'crypto:btcusdt', family: 'intraday', drawings: [line(1, 2)] },
    counts,
  ),
  row(
    'saveDrawings',
    'a trend line whose second point is the earlier',
    {
      key: KEY,
      family: 'intraday',
      drawings: [
        {
          ...line(1, 2),
          line: { ...line(1, 2).line, a: { t: T0 + 1, price: 1 }, b: { t: T0, price: 2 } },
        },
      ],
    },
    'INVALID_INPUT',
  ),
  row(
    'saveDrawings',
    'not a symbol',
    { key: 'btc', family: 'intraday', drawings: [] },
    'INVALID_INPUT',
  ),
  row('getDrawings', 'the chart saved', { keys: [KEY], family: 'intraday' }, (r) => r),
  row(
    'addDrawingAlert',
    'on the trend line',
    { key: KEY, family: 'intraday', drawingId: 't1', interval: '5m' },
    (r) => (r as { condition: unknown }).condition,
  ),
  row(
    'addDrawingAlert',
    'on a drawing not there',
    { key: KEY, family: 'intraday', drawingId: 'zz', interval: '5m' },
    'NOT_FOUND',
  ),
  row(
    'saveDrawings',
    'the line moved: its alert follows',
    { key: KEY, family: 'intraday', drawings: [line(3, 4)] },
    counts,
  ),
  row(
    'saveDrawings',
    'the line removed: its alert goes',
    { key: KEY, family: 'intraday', drawings: [] },
    counts,
  ),
]
