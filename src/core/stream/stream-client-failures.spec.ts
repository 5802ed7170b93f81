import { describe, expect, it } from 'vitest'
import { watchForSleep } from '../engine/sleep-detector'
import { subs, useStreamClientFixture } from '../testing/stream-client-fixture'
import { waitUntil } from '../testing/ws-test-server'

const fx = useStreamClientFixture()
const { makeClient, conn, untilOpen, untilConnections } = fx
const w = fx.live

describe('StreamClient upgrade rejections and limits', () => {
  it('stops after a 401 on upgrade until the key changes', async () => {
    w.server.reject = (h) => (h['x-api-key'] === 'good-key-9999' ? null : { status: 401 })
    const c = makeClient({ apiKey: 'bad-key-0000' })
    c.start()
    await waitUntil(() => c.state() === 'closed', 'closed after 401')
    expect(w.errors.map((e) => [e.code, e.status])).toEqual([['UNAUTHORIZED', 401]])
    expect(c.nextRetryAt()).toBeNull()
    expect(w.budget.outcomes).toMatchObject([{ ok: false, error: { code: 'UNAUTHORIZED' } }])
    w.clock.advance(3_600_000)
    c.checkHealth()
    await new Promise((r) => setTimeout(r, 20))
    expect(w.server.upgrades).toHaveLength(1)
    c.setApiKey('good-key-9999')
    await untilOpen(c)
    expect(w.server.upgrades).toHaveLength(2)
  })

  it('waits at least 15 minutes after a 403 and reports the service code', async () => {
    w.server.reject = () => ({
      status: 403,
      body: '{"succ":false,"code":"NO_SUBSCRIPTION","msg":"none"}',
    })
    const c = makeClient()
    c.start()
    await waitUntil(() => c.state() === 'reconnecting', 'reconnecting after 403')
    expect(w.errors.map((e) => [e.code, e.status])).toEqual([['NO_SUBSCRIPTION', 403]])
    expect((c.nextRetryAt() ?? 0) - w.clock.now()).toBeGreaterThanOrEqual(15 * 60_000)
    w.clock.advance(14 * 60_000)
    c.checkHealth() // a resume does not shorten an entitlement wait
    await new Promise((r) => setTimeout(r, 20))
    expect(w.server.upgrades).toHaveLength(1)
  })

  it('honours Retry-After on a 429 upgrade', async () => {
    w.server.reject = () => ({
      status: 429,
      headers: { 'Retry-After': '120' },
      body: '{"code":"RATE_LIMIT_EXCEEDED"}',
    })
    const c = makeClient()
    c.start()
    await waitUntil(() => c.state() === 'reconnecting', 'reconnecting after 429')
    expect(w.errors[0]).toMatchObject({
      code: 'RATE_LIMIT_EXCEEDED',
      status: 429,
      retryAfterMs: 120_000,
    })
    expect((c.nextRetryAt() ?? 0) - w.clock.now()).toBeGreaterThanOrEqual(120_000)
  })

  it('backs off for at least 20 s after WS_CONN_LIMIT, growing to over 5 minutes', async () => {
    w.server.onConnection = (sc) => {
      sc.socket.send(JSON.stringify({ type: 'error', code: 'WS_CONN_LIMIT', msg: 'cap' }))
      sc.socket.close(1008, 'WS_CONN_LIMIT')
    }
    const c = makeClient({ random: () => 0 })
    c.start()
    const delays: number[] = []
    for (let i = 0; i < 5; i++) {
      await waitUntil(() => c.state() === 'reconnecting', `conn-limit #${i}`)
      delays.push((c.nextRetryAt() ?? 0) - w.clock.now())
      w.clock.advance(delays[i] ?? 0)
      await waitUntil(() => c.state() !== 'reconnecting', 'retrying')
    }
    expect(delays).toEqual([20_000, 40_000, 80_000, 160_000, 300_000])
    expect(w.errors.filter((e) => e.code === 'WS_CONN_LIMIT').length).toBeGreaterThanOrEqual(5)
  })

  it('treats WS_CONN_LIMIT naming symbols as the symbol cap, keeping the connection', async () => {
    const c = makeClient()
    const refused: string[][] = []
    c.on('symbolCap', (e) => refused.push(e.symbols))
    c.setSubscriptions(subs([['crypto', ['A', 'B']]]))
    c.start()
    await untilConnections(1)
    conn(0).socket.send(JSON.stringify({ event: 'error', code: 'WS_CONN_LIMIT', symbols: ['B'] }))
    await waitUntil(() => refused.length === 1, 'symbol error')
    expect(refused).toEqual([['B']])
    expect(w.errors).toEqual([])
    expect(c.state()).toBe('open')
  })

  it('reads a WS_CONN_LIMIT that names no cap by what follows: kept open, the symbol cap', async () => {
    const c = makeClient()
    const caps: string[][] = []
    c.on('symbolCap', (e) => caps.push(e.symbols))
    c.setSubscriptions(subs([['crypto', ['A', 'B']]]))
    c.start()
    await untilConnections(1)
    conn(0).socket.send(JSON.stringify({ event: 'error', code: 'WS_CONN_LIMIT', msg: 'limit' }))
    await new Promise((r) => setTimeout(r, 30))
    expect(caps).toEqual([])
    w.clock.advance(1_500)
    await waitUntil(() => caps.length === 1, 'symbol cap')
    expect(caps).toEqual([[]])
    expect(w.errors).toEqual([])
    expect(c.state()).toBe('open')
    expect(w.server.connections).toHaveLength(1)
  })

  it('treats a close whose reason is WS_CONN_LIMIT like the error frame', async () => {
    w.server.onConnection = (sc) => sc.socket.close(1008, 'WS_CONN_LIMIT')
    const c = makeClient({ random: () => 0.999 })
    c.start()
    await waitUntil(() => c.state() === 'reconnecting', 'reconnecting')
    expect(w.errors.map((e) => e.code)).toEqual(['WS_CONN_LIMIT'])
    expect((c.nextRetryAt() ?? 0) - w.clock.now()).toBeGreaterThanOrEqual(20_000)
  })
})

describe('StreamClient health checks', () => {
  it('checkHealth replaces an open socket that does not answer a ping within 5 s', async () => {
    await fx.replaceServer({ autoPong: false })
    const c = makeClient()
    c.start()
    await untilOpen(c)
    c.checkHealth()
    w.clock.advance(5_000)
    await untilConnections(2)
    await untilOpen(c)
    expect(w.states).not.toContain('reconnecting')
  })

  it('checkHealth keeps a socket that answers', async () => {
    const c = makeClient()
    c.start()
    await untilOpen(c)
    // The server answers the health ping, then sends a frame: once the client has read that
    // frame it has read the pong before it (one TCP stream), however slow the machine is.
    conn(0).socket.once('ping', () => conn(0).socket.send('{}'))
    const framesBefore = c.stats().framesIn
    c.checkHealth()
    await waitUntil(() => c.stats().framesIn > framesBefore, 'the frame after the pong')
    w.clock.advance(5_000)
    await new Promise((r) => setTimeout(r, 20))
    expect(w.server.connections).toHaveLength(1)
    expect(c.state()).toBe('open')
  })

  it('checkHealth reconnects at once after a clock jump instead of waiting out the backoff', async () => {
    const c = makeClient({ random: () => 0.999 })
    const gaps: number[] = []
    const stopWatching = watchForSleep(
      w.clock,
      (gap) => {
        gaps.push(gap)
        c.checkHealth()
      },
      100,
    )
    c.start()
    await untilOpen(c)
    conn(0).socket.terminate()
    await waitUntil(() => c.state() === 'reconnecting', 'reconnecting')
    const retryAt = c.nextRetryAt() ?? 0
    w.clock.jump(10 * 60_000) // the laptop sleeps; no timer fires
    expect(c.state()).toBe('reconnecting')
    w.clock.advance(100) // the first timer after wake is the detector's
    expect(gaps).toHaveLength(1)
    expect(gaps[0]).toBeGreaterThanOrEqual(10 * 60_000 - 100)
    expect(c.state()).toBe('connecting')
    expect(c.nextRetryAt()).toBeNull()
    expect(retryAt).toBeGreaterThan(0)
    await untilOpen(c)
    expect(w.server.connections).toHaveLength(2)
    stopWatching()
  })
})
