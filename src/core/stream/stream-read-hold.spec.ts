import { describe, expect, it } from 'vitest'
import { subs, useStreamClientFixture } from '../testing/stream-client-fixture'
import { waitUntil } from '../testing/ws-test-server'

const fx = useStreamClientFixture()
const { makeClient, conn, untilOpen } = fx

const tick = (symbol: string, last: number): string =>
  JSON.stringify({ event: 'ticker', data: [{ symbol, market: 'crypto', last }] })
const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

describe('StreamClient.holdReads', () => {
  it('reads nothing while held, then everything sent meanwhile, in order', async () => {
    const c = makeClient()
    const seen: string[] = []
    c.on('tick', (t) => seen.push(`${t.symbol}:${t.fields.last}`))
    c.setSubscriptions(subs([['crypto', ['AAA', 'BBB']]]))
    c.start()
    await untilOpen(c)
    conn(0).socket.send(tick('AAA', 1))
    await waitUntil(() => seen.length === 1, 'first tick')
    const release = c.holdReads()
    for (let i = 2; i <= 40; i++) conn(0).socket.send(tick(i % 2 === 0 ? 'BBB' : 'AAA', i))
    await pause(60)
    expect(seen).toEqual(['AAA:1'])
    release()
    await waitUntil(() => seen.length === 40, 'the held ticks')
    expect(seen.map((s) => Number(s.split(':')[1]))).toEqual(
      Array.from({ length: 40 }, (_, i) => i + 1),
    )
    // Released: read as they come again.
    conn(0).socket.send(tick('AAA', 41))
    await waitUntil(() => seen.length === 41, 'a tick after the hold')
  })

  it('lets go of a held socket when the client stops: its close is read at once', async () => {
    const c = makeClient()
    c.setSubscriptions(subs([['crypto', ['AAA']]]))
    c.start()
    await untilOpen(c)
    c.holdReads()
    const started = Date.now()
    await c.stop()
    expect(Date.now() - started).toBeLessThan(1000)
    await waitUntil(() => conn(0).socket.readyState === conn(0).socket.CLOSED, 'server sees close')
  })

  it('a hold on a socket the client dropped ends with it: the next socket reads, and holds', async () => {
    const c = makeClient()
    const seen: number[] = []
    c.on('tick', (t) => seen.push(t.fields.last ?? 0))
    c.setSubscriptions(subs([['crypto', ['AAA']]]))
    c.start()
    await untilOpen(c)
    c.holdReads()
    c.setApiKey('test-key-5678') // a new key: a new socket
    await waitUntil(() => fx.world().server.connections.length === 2, 'a new socket')
    await untilOpen(c)
    await waitUntil(() => conn(1).messages.length === 1, 'subscribed again')
    conn(1).socket.send(tick('AAA', 7))
    await waitUntil(() => seen.includes(7), 'a tick on the new socket')
    // And the new socket can be held in its turn.
    const release = c.holdReads()
    conn(1).socket.send(tick('AAA', 8))
    await pause(60)
    expect(seen).toEqual([7])
    release()
    await waitUntil(() => seen.includes(8), 'the held tick')
  })
})
