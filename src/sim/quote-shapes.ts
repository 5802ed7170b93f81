import type { ServiceBehaviour } from './behaviour'
import type { Instrument } from './market/instruments'
import type { TickerQuote } from './market/price-walk'
import type { TickPush } from './push-layouts'

/**
 * How the service shows a symbol's quote at the moment, REST row and push alike:
 *   full      every figure
 *   bid-ask   bid and ask only, no last (ServiceBehaviour.bidAskOnly markets)
 *   untraded  last 0, change 0, no day range: a stock before its first trade of the day
 *             (FaultHooks.untraded)
 *   none      no quote at all: left out of REST answers (all left out: `data: null` under
 *             noQuoteAsNull), no pushes (FaultHooks.noQuote)
 */
export type QuoteShape = 'full' | 'bid-ask' | 'untraded' | 'none'

export interface QuoteGaps {
  readonly noQuote: ReadonlySet<string>
  readonly untraded: ReadonlySet<string>
}

export function quoteShape(inst: Instrument, b: ServiceBehaviour, gaps: QuoteGaps): QuoteShape {
  const key = `${inst.market}:${inst.symbol}`
  if (gaps.noQuote.has(key)) return 'none'
  if (gaps.untraded.has(key)) return 'untraded'
  return b.bidAskOnly.includes(inst.market) ? 'bid-ask' : 'full'
}

/** A REST row (spec: TickerQuote) as this shape shows it; null for none. */
export function shapeRow(q: TickerQuote, shape: QuoteShape): Record<string, unknown> | null {
  switch (shape) {
    case 'none':
      return null
    case 'full':
      return { ...q }
    case 'bid-ask':
      return pick(q, ['symbol', 'bid', 'ask', 'bidSize', 'askSize', 'openTime', 'closeTime'])
    case 'untraded':
      return {
        ...pick(q, ['symbol', 'bid', 'ask', 'bidSize', 'askSize', 'prevClose', 'openTime']),
        ...{
          closeTime: q.closeTime,
          last: 0,
          change: 0,
          changePercent: 0,
          open: 0,
          high: 0,
          low: 0,
        },
        ...{ volume: 0, quoteVolume: 0, trades: 0 },
      }
  }
}

/** A push as this shape shows it; null for none. */
export function shapeTick(t: TickPush, shape: QuoteShape): TickPush | null {
  switch (shape) {
    case 'none':
      return null
    case 'full':
      return t
    case 'bid-ask': {
      const { last: _l, change: _c, changePercent: _p, volume: _v, ...rest } = t
      return { ...rest, bid: t.quote?.bid ?? t.bid, ask: t.quote?.ask ?? t.ask }
    }
    case 'untraded':
      return { ...t, last: 0, change: 0, changePercent: 0, volume: 0 }
  }
}

function pick(q: TickerQuote, keys: ReadonlyArray<keyof TickerQuote>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const k of keys) out[k] = q[k]
  return out
}
