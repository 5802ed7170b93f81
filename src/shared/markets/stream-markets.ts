import { z } from 'zod'
import { MARKETS, MarketSchema, type Market } from './market'

/**
 * The words a service's stream knows our markets by, as a trader writes them: `fx=forex,crypto=spot`
 * (Settings, TICKDESK_STREAM_MARKETS, --stream-market). One parser for every place that takes
 * them, so the page, the CLI and the environment accept and refuse the same text with the same
 * message (spec: WebSocket stream, the values of field market are not shown;
 * docs/open-readings.md).
 */

/** A stream market name as a service may spell it: short, no spaces or quotes. */
export const StreamNameSchema = z.string().regex(/^[A-Za-z0-9][\w.:-]{0,39}$/)

export type StreamMarkets = Partial<Record<Market, string>>

/** `fx=forex,crypto=spot` into names by market. Throws a readable message on a bad pair. */
export function parseStreamMarkets(pairs: readonly string[]): StreamMarkets {
  const out: StreamMarkets = {}
  for (const raw of pairs.flatMap((p) => p.split(','))) {
    const pair = raw.trim()
    if (pair === '') continue
    const [market, name, extra] = pair.split('=').map((x) => x.trim())
    const m = MarketSchema.safeParse(market?.toLowerCase())
    if (!m.success)
      throw new Error(
        `stream market "${pair}": unknown market "${market ?? ''}" (one of ${MARKETS.join(', ')})`,
      )
    if (extra !== undefined || !StreamNameSchema.safeParse(name).success)
      throw new Error(`stream market "${pair}": write it as market=name, e.g. fx=forex`)
    out[m.data] = name as string
  }
  return out
}

/** The inverse of parseStreamMarkets, in the markets' own order. */
export function formatStreamMarkets(names: StreamMarkets): string {
  return MARKETS.filter((m) => names[m] !== undefined)
    .map((m) => `${m}=${names[m] as string}`)
    .join(', ')
}
