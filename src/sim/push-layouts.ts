import type { SimMarket } from './market/instruments'
import type { TickerQuote } from './market/price-walk'
import {
  wireNumber,
  wireSymbol,
  wireTime,
  type NumberFormat,
  type Spelling,
  type TimeFormat,
} from './wire-format'

/**
 * The keys a tick push is written under. The interface shows no push shape (spec: Events), so a
 * service may use any of these, and the client must find the price in each by comparing it with
 * the REST quote of the same symbol, not by knowing the shape:
 *   sim        {symbol, market, last, bid, ask, volume, change, changePercent, ts}: the
 *              simulator's own, our figure names (partial: only symbol, market, last, ts sure)
 *   ticker24h  a common exchange's 24-hour ticker {e, E, s, p, P, w, x, c, Q, b, B, a, A, o, h,
 *              l, v, q, O, C, F, L, n}: figures as strings, `c` the last price and `p` its 24 h
 *              change, no market
 *   bid-ask    {symbol, bid, ask, ts}: no last at all (FX and many venues quote so)
 *   own-a      {instrument, venue, px_last, px_chg, px_bid, px_ask, qty_day, time}
 *   own-b      {sym, lp, ch, chp, bp, ap, vol, t}
 */
export type PushLayout = 'sim' | 'ticker24h' | 'bid-ask' | 'own-a' | 'own-b'

/** One tick as the simulator moved it; `quote` is the walk's whole snapshot behind it. */
export interface TickPush {
  symbol: string
  market: SimMarket
  /** Absent when the service quotes the symbol without a last (bid and ask only). */
  last?: number
  bid?: number
  ask?: number
  volume?: number
  change?: number
  changePercent?: number
  ts: number
  /** The walk's snapshot behind the tick; layouts that send every figure read it. */
  quote?: TickerQuote
}

export interface ItemFormat {
  numbers: NumberFormat
  times: TimeFormat
  spelling: Spelling
  /** The market word a push carries, or null for none. */
  marketWord: string | null
}

type Item = Record<string, unknown>

/** The push item for a tick under a layout, and which figures it served (for the record). */
export function layoutTick(layout: PushLayout, t: TickPush, f: ItemFormat): Item {
  const n = (v: number | undefined): number | string | undefined =>
    v === undefined ? undefined : wireNumber(v, f.numbers)
  const symbol = wireSymbol(t.symbol, t.market, f.spelling)
  const time = wireTime(t.ts, f.times, t.market)
  const q = t.quote ?? snapshotOf(t)
  const tag = f.marketWord === null ? {} : { market: f.marketWord }
  switch (layout) {
    case 'sim':
      return clean({
        symbol,
        ...tag,
        last: n(t.last),
        bid: n(t.bid),
        ask: n(t.ask),
        volume: n(t.volume),
        change: n(t.change),
        changePercent: n(t.changePercent),
        ts: time,
      })
    case 'ticker24h':
      return clean({
        e: '24hrTicker',
        E: t.ts,
        s: symbol,
        p: n(t.last === undefined ? undefined : q.change),
        P: n(t.last === undefined ? undefined : q.changePercent),
        w: n(Number(((q.high + q.low + q.last) / 3).toPrecision(8))),
        x: n(q.prevClose),
        c: n(t.last),
        Q: n(q.bidSize),
        b: n(q.bid),
        B: n(q.bidSize),
        a: n(q.ask),
        A: n(q.askSize),
        o: n(q.open),
        h: n(q.high),
        l: n(q.low),
        v: n(q.volume),
        q: n(q.quoteVolume),
        O: q.openTime,
        C: t.ts,
        F: 1_000_000 + q.trades,
        L: 1_000_000 + 2 * q.trades,
        n: q.trades,
      })
    case 'bid-ask':
      return clean({ symbol, ...tag, bid: n(q.bid), ask: n(q.ask), ts: time })
    case 'own-a':
      return clean({
        instrument: symbol,
        venue: f.marketWord ?? undefined,
        px_last: n(t.last),
        px_chg: n(t.change),
        px_bid: n(t.bid),
        px_ask: n(t.ask),
        qty_day: n(t.volume),
        time,
      })
    case 'own-b':
      return clean({
        sym: symbol,
        lp: n(t.last),
        ch: n(t.change),
        chp: n(t.changePercent),
        bp: n(t.bid),
        ap: n(t.ask),
        vol: n(t.volume),
        t: time,
      })
  }
}

/** The figures a push under this layout serves, for the record of what was served. */
export function servedFigures(
  layout: PushLayout,
  t: TickPush,
): { last?: number; bid?: number; ask?: number } {
  const q = t.quote ?? snapshotOf(t)
  if (layout === 'bid-ask') return { bid: q.bid, ask: q.ask }
  if (layout === 'ticker24h')
    return { ...(t.last === undefined ? {} : { last: t.last }), bid: q.bid, ask: q.ask }
  return clean({ last: t.last, bid: t.bid, ask: t.ask }) as {
    last?: number
    bid?: number
    ask?: number
  }
}

/** The kind a single push of this layout names itself by ({type:'tick'}, {e:'24hrTicker'}, ...). */
export function singleKind(layout: PushLayout): Item {
  if (layout === 'ticker24h') return {}
  if (layout === 'own-a' || layout === 'own-b') return { channel: 'md' }
  return { type: 'tick' }
}

/** The batch envelope's head for ticks of this layout. */
export function batchHead(layout: PushLayout): Item {
  if (layout === 'own-a' || layout === 'own-b') return { event: 'update' }
  return { event: 'ticker' }
}

/** A tick built without a walk behind it (a benchmark's feed): its own figures, the rest 0. */
function snapshotOf(t: TickPush): TickerQuote {
  const last = t.last ?? 0
  return {
    ...{ symbol: t.symbol, last, change: t.change ?? 0, changePercent: t.changePercent ?? 0 },
    ...{ open: last, high: last, low: last, prevClose: last - (t.change ?? 0) },
    ...{ volume: t.volume ?? 0, quoteVolume: 0, bid: t.bid ?? last, ask: t.ask ?? last },
    ...{ bidSize: 0, askSize: 0, openTime: t.ts, closeTime: t.ts, trades: 0 },
  }
}

function clean(item: Item): Item {
  for (const k of Object.keys(item)) if (item[k] === undefined) delete item[k]
  return item
}
