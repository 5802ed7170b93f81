import { describe, expect, it } from 'vitest'
import type { StreamEvents } from './stream-events'
import { subs, useStreamClientFixture } from '../testing/stream-client-fixture'
import { waitUntil } from '../testing/ws-test-server'

/**
 * A market word the service itself sends in pushes (none of ours) is a
 * name to try for the market its symbol streams in, before the documented spellings (the engine
 * hands it to StreamMarketNames.serviceTag, as a REST payload's `market`).
 */
const fx = useStreamClientFixture()
const { makeClient, conn, untilConnections } = fx
const w = fx.live

describe('market words in pushes', () => {
  it('are told as the service’s tag for the market the symbol streams in, parsed or scanned', async () => {
    const c = makeClient()
    const tags: Array<StreamEvents['serviceTag']> = []
    c.on('serviceTag', (t) => tags.push(t))
    c.setSubscriptions(
      subs([
        ['fx', ['EURUSD', 'USDJPY']],
        ['crypto', ['BTCUSDT']],
        ['usdt-futures', ['BTCUSDT']],
      ]),
    )
    c.start()
    await untilConnections(1)
    expect(w.server.connections).toHaveLength(1)
    // A single tick (parsed), then the batch dialect (scanned); each word told once.
    conn(0).socket.send(
      JSON.stringify({ type: 'tick', symbol: 'EURUSD', market: 'fx_spot', last: 1.1 }),
    )
    conn(0).socket.send(
      JSON.stringify({
        event: 'ticker',
        data: [
          { symbol: 'USDJPY', market: 'fx_other', last: 150 },
          { symbol: 'EURUSD', market: 'fx_spot', last: 1.2 },
          // Wanted in two markets: the word may be either's, so it is nobody's.
          { symbol: 'BTCUSDT', market: 'perp_x', last: 9 },
        ],
      }),
    )
    await waitUntil(() => tags.length >= 2, 'tags')
    await new Promise((r) => setTimeout(r, 50))
    expect(tags).toEqual([
      { market: 'fx', tag: 'fx_spot' },
      { market: 'fx', tag: 'fx_other' },
    ])
  })
})
