import { afterEach, describe, expect, it } from 'vitest'
import type { FakeClock } from '../clock'
import { crypto, rig, service, stopPollerRig, symbolsOf, type Rig } from '../testing/poller-rig'
import { ok, type SeenRequest } from '../testing/rest-test-server'

afterEach(stopPollerRig)

/**
 * A poller of AAA and BBB whose first call (asking both) is still out when `midCall` changes the
 * poller; the rig after a second of polling.
 */
async function pollWithChangeMidCall(midCall: (p: Rig['p']) => void): Promise<Rig> {
  let during: (() => void) | null = null
  const answer = service()
  const r = await rig((req) => {
    during?.()
    during = null
    return answer(req)
  })
  during = () => midCall(r.p)
  r.p.setSymbols(['crypto:AAA', 'crypto:BBB'])
  r.p.start()
  await r.run(1_000)
  expect(symbolsOf(r.srv.requests[0] as SeenRequest)).toEqual(['AAA', 'BBB'])
  return r
}

describe('QuotePoller', () => {
  it('splits 120 symbols into batches of at most 50', async () => {
    const r = await rig(service())
    r.p.setSymbols(crypto(120))
    r.p.start()
    await r.run(10_000)
    const sizes = r.srv.requests.map((q) => symbolsOf(q).length)
    expect(Math.max(...sizes)).toBeLessThanOrEqual(50)
    expect(sizes.slice(0, 3)).toEqual([50, 50, 20])
    expect(Object.keys(r.p.stats().lastPolledAt)).toHaveLength(120)
    expect(r.updates[0]).toMatchObject({
      market: 'crypto',
      source: 'poll',
      fields: { last: 8 },
      ts: 1_767_623_400_000,
    })
  })

  it('sends one call per endpoint family for mixed markets', async () => {
    const r = await rig(service())
    r.p.setSymbols([
      'crypto:BTCUSDT',
      'fx:EURUSD',
      'usdt-futures:ETHUSDT',
      'hk:00700',
      'crypto:ETHUSDT',
    ])
    r.p.start()
    await r.run(3_000)
    const first = r.srv.requests.slice(0, 3).map((q) => `${q.path}?${q.query.get('symbols')}`)
    expect(first.sort()).toEqual([
      '/api/v1/market/crypto/quote?BTCUSDT,ETHUSDT',
      '/api/v1/market/futures/quote?ETHUSDT',
      '/api/v1/market/quote?EURUSD,00700',
    ])
    expect(r.updates.find((u) => u.symbol === '00700')?.market).toBe('hk')
  })

  it('isolates one unknown symbol in a batch of 50 and keeps the other 49 fresh', async () => {
    const keys = crypto(50)
    const r = await rig(service({ unknown: ['C017USDT'] }))
    r.p.setSymbols(keys)
    r.p.start()
    await r.run(60_000, 500)
    expect(r.statuses.filter((s) => s.code !== 'OK')).toEqual([
      {
        key: 'crypto:C017USDT',
        code: 'UNKNOWN_SYMBOL',
        message: expect.stringContaining('C017USDT'),
      },
    ])
    const fresh = r.p.stats().lastPolledAt
    expect(Object.keys(fresh)).toHaveLength(49)
    for (const key of keys.filter((k) => k !== 'crypto:C017USDT')) {
      expect(r.clock.now() - (fresh[key] ?? 0)).toBeLessThan(15_000)
    }
    // isolation done, the bad symbol is left alone for at least 15 minutes
    const before = r.srv.requests.length
    await r.run(10 * 60_000, 5_000)
    const later = r.srv.requests.slice(before)
    expect(later.length).toBeGreaterThan(10)
    expect(later.some((q) => symbolsOf(q).includes('C017USDT'))).toBe(false)
  })

  it('isolates a symbol whose request is INVALID_REQUEST and pauses it with a reason, not every round', async () => {
    const keys = crypto(20)
    const r = await rig(service({ invalid: ['C007USDT'] }))
    r.p.setSymbols(keys)
    r.p.start()
    await r.run(60_000, 500)
    expect(r.statuses.filter((s) => s.code !== 'OK')).toEqual([
      {
        key: 'crypto:C007USDT',
        code: 'INVALID_REQUEST',
        message: expect.stringMatching(/C007USDT.*INVALID_REQUEST.*30 min/),
      },
    ])
    const asked = (): number =>
      r.srv.requests.filter((q) => symbolsOf(q).includes('C007USDT')).length
    const before = asked()
    await r.run(10 * 60_000, 5_000)
    expect(asked()).toBe(before)
    expect(Object.keys(r.p.stats().lastPolledAt)).toHaveLength(19)
  })

  it('learns a smaller batch size when batches keep failing INVALID_REQUEST with no symbol to blame', async () => {
    const r = await rig(service({ maxBatch: 20 }))
    r.p.setSymbols(crypto(45))
    r.p.start()
    await r.run(3 * 60_000, 500)
    expect(r.statuses.filter((s) => s.code !== 'OK')).toEqual([])
    const last = r.srv.requests.slice(-6).map((q) => symbolsOf(q).length)
    expect(Math.max(...last)).toBeLessThanOrEqual(20)
    for (const at of Object.values(r.p.stats().lastPolledAt))
      expect(r.clock.now() - at).toBeLessThan(30_000)
  })

  it('blocks only the futures market after MARKET_NOT_ENABLED and keeps polling crypto', async () => {
    const r = await rig(service({ futuresDenied: true }))
    r.p.setSymbols(['futures:ES1!', 'fx:EURUSD', 'crypto:BTCUSDT'])
    r.p.start()
    await r.run(30_000)
    expect(r.statuses).toContainEqual(
      expect.objectContaining({ key: 'futures:ES1!', code: 'MARKET_NOT_ENABLED' }),
    )
    expect(r.statuses.find((s) => s.key !== 'futures:ES1!' && s.code !== 'OK')).toBeUndefined()
    const blockedAt = r.srv.requests.findIndex((q) => symbolsOf(q).join() === 'ES1!')
    expect(blockedAt).toBeGreaterThan(-1)
    const stats = r.p.stats().lastPolledAt
    expect(r.clock.now() - (stats['crypto:BTCUSDT'] ?? 0)).toBeLessThan(10_000)
    expect(r.clock.now() - (stats['fx:EURUSD'] ?? 0)).toBeLessThan(10_000)
    // no request carries ES1! again until the 15-minute recheck
    const count = (): number => r.srv.requests.filter((q) => symbolsOf(q).includes('ES1!')).length
    const asked = count()
    await r.run(14 * 60_000, 10_000)
    expect(count()).toBe(asked)
    await r.run(2 * 60_000, 10_000)
    expect(count()).toBe(asked + 1)
  })

  it('holds polling within the plan budget and spreads it evenly', async () => {
    const times: number[] = []
    let clock: FakeClock | null = null
    const answer = service()
    const r = await rig((req) => {
      times.push(clock?.now() ?? 0)
      return answer(req)
    }, 30)
    clock = r.clock
    r.p.setSymbols([...crypto(200), 'fx:EURUSD', 'agri:ZC1!'])
    r.p.start()
    await r.run(5 * 60_000, 1_000)
    // Free: 30 rpm, governed at 27; with nobody else waiting, polling may take all 27, evenly spaced
    for (const start of times) {
      expect(times.filter((t) => t >= start && t < start + 60_000).length).toBeLessThanOrEqual(27)
    }
    for (let i = 1; i < times.length; i++) {
      expect((times[i] ?? 0) - (times[i - 1] ?? 0)).toBeGreaterThanOrEqual(2_000)
    }
    expect(times.length).toBeGreaterThanOrEqual(5 * 25)
    expect(Object.keys(r.p.stats().lastPolledAt)).toHaveLength(202)
  })

  it('polls symbols of lists out of view every 30 s and the rest every 5 s while the budget lasts', async () => {
    const r = await rig(service())
    const hidden = ['fx:EURUSD', 'fx:USDJPY']
    r.p.setSymbols([...crypto(3), ...hidden], new Set(hidden))
    r.p.start()
    await r.run(61_000, 500)
    const asks = (symbol: string): number =>
      r.srv.requests.filter((q) => symbolsOf(q).includes(symbol)).length
    // At 0, 5, ..., 60 s: 13 rounds for what is in view; at 0, 30 and 60 s for the rest.
    expect(asks('C000USDT')).toBe(13)
    expect(asks('EURUSD')).toBe(3)
    expect(asks('USDJPY')).toBe(3)
  })

  it('slows both paces together when the budget is short, never starving lists out of view', async () => {
    const r = await rig(service(), 30)
    const hidden = Array.from({ length: 50 }, (_, i) => `fx:F${i}`)
    r.p.setSymbols([...crypto(150), ...hidden], new Set(hidden))
    r.p.start()
    await r.run(180_000, 1_000)
    const asks = (symbol: string): number =>
      r.srv.requests.filter((q) => symbolsOf(q).includes(symbol)).length
    // 27 calls a minute: 3 crypto calls and a sixth of the fx call per round, ~7.2 s and ~43 s.
    expect(asks('F0')).toBeGreaterThanOrEqual(4)
    expect(asks('C000USDT')).toBeGreaterThanOrEqual(4 * asks('F0'))
  })

  it('quotes agriculture on the batched multi-market quote, with the other multi markets', async () => {
    const r = await rig(service())
    r.p.setSymbols(['agri:ZC1!', 'fx:EURUSD', 'agri:ZS1!'])
    r.p.start()
    await r.run(30_000)
    expect(r.srv.requests.every((q) => q.path === '/api/v1/market/quote')).toBe(true)
    expect(symbolsOf(r.srv.requests[0] as SeenRequest).sort()).toEqual(['EURUSD', 'ZC1!', 'ZS1!'])
    expect(r.updates.find((u) => u.symbol === 'ZC1!')?.market).toBe('agri')
  })

  it('asks a symbol watched in two multi markets once and answers both', async () => {
    const r = await rig(service())
    r.p.setSymbols(['fx:XAUUSD', 'commodity:XAUUSD', 'fx:EURUSD'])
    r.p.start()
    await r.run(1_000)
    expect(symbolsOf(r.srv.requests[0] as SeenRequest)).toEqual(['XAUUSD', 'EURUSD'])
    const got = r.updates.map((u) => `${u.market}:${u.symbol}=${u.fields.last}`).sort()
    expect(got).toEqual(['commodity:XAUUSD=6', 'fx:EURUSD=6', 'fx:XAUUSD=6'])
    expect(r.statuses.filter((s) => s.code === 'OK').map((s) => s.key)).toHaveLength(3)
  })

  it("takes a lone symbol's answer under the service's spelling, not an answer for another", async () => {
    const r = await rig((req) =>
      req.query.get('symbols') === 'EURUSD'
        ? ok([{ symbol: 'OANDA:eurusd.x', last: 1.1 }])
        : ok([
            { symbol: 'SOMETHING', last: 2 },
            { symbol: 'ZZZ', last: 3 },
          ]),
    )
    r.p.setSymbols(['fx:EURUSD', 'crypto:AAA', 'crypto:BBB'])
    r.p.start()
    await r.run(1_000)
    expect(r.updates.map((u) => `${u.market}:${u.symbol}=${u.fields.last}`)).toEqual([
      'fx:EURUSD=1.1',
    ])
    expect(r.statuses.find((s) => s.key === 'crypto:AAA')?.code).toBe('NO_DATA')
  })

  it('does not ingest the answer for a symbol the trader stopped watching while its call was out', async () => {
    // What the engine does when the last watcher lets go: forget, then a poll set without it.
    const r = await pollWithChangeMidCall((p) => {
      p.forget('crypto:AAA')
      p.setSymbols(['crypto:BBB'])
    })
    expect(r.updates.map((u) => u.symbol)).toContain('BBB')
    expect(r.updates.map((u) => u.symbol)).not.toContain('AAA')
  })

  it('hands on the answer for a symbol that left the poll set for the stream while its call was out', async () => {
    // Its market's stream name was proven mid-call: still watched, no longer polled.
    const r = await pollWithChangeMidCall((p) => p.setSymbols(['crypto:BBB']))
    expect(r.updates.map((u) => u.symbol)).toContain('AAA')
    // And it is not polled again: it streams.
    expect(r.srv.requests.slice(1).some((q) => symbolsOf(q).includes('AAA'))).toBe(false)
  })

  it('falls back to the latest 1m agri bar only for the agri symbols the quote refuses, once a minute', async () => {
    const r = await rig(service({ unknown: ['ZW1!'] }))
    r.p.setSymbols(['agri:ZC1!', 'agri:ZW1!', 'fx:EURUSD'])
    r.p.start()
    await r.run(1_000)
    const kline = (): SeenRequest[] =>
      r.srv.requests.filter((q) => q.path === '/api/v1/market/agri/kline')
    expect(kline().map((q) => [q.query.get('symbol'), q.query.get('interval')])).toEqual([
      ['ZW1!', '1'],
    ])
    expect(r.updates.find((u) => u.symbol === 'ZW1!')).toEqual({
      market: 'agri',
      symbol: 'ZW1!',
      fields: { last: 4.5 },
      ts: 1_767_623_399_000,
      source: 'poll',
    })
    expect(r.statuses.find((s) => s.key === 'agri:ZW1!' && s.code !== 'OK')).toBeUndefined()
    const quotesBefore = r.srv.requests.length - kline().length
    await r.run(5 * 60_000, 1_000)
    expect(kline().length).toBeLessThanOrEqual(6)
    const quotes = r.srv.requests.filter((q) => q.path === '/api/v1/market/quote')
    expect(quotes.length - quotesBefore).toBeGreaterThan(20)
    expect(quotes.slice(quotesBefore).some((q) => symbolsOf(q).includes('ZW1!'))).toBe(false)
  })

  it('polls streamed symbols once on pollNow to fill a reconnect gap', async () => {
    const r = await rig(service())
    r.p.setSymbols(['crypto:BTCUSDT'])
    r.p.start()
    await r.run(1_000)
    r.p.pollNow(['crypto:ETHUSDT', 'usdt-futures:SOLUSDT'])
    await r.run(1_000)
    await r.run(60_000, 1_000)
    const eth = r.srv.requests.filter((q) => symbolsOf(q).includes('ETHUSDT'))
    expect(eth).toHaveLength(1)
    expect(r.updates.filter((u) => u.symbol === 'SOLUSDT')).toHaveLength(1)
    expect(r.p.stats().polled).toBe(1)
  })

  it('sends nothing while the key is rejected and resumes after the key changes', async () => {
    let rejected = true
    const r = await rig(service({ status401: () => rejected }))
    r.p.setSymbols(['crypto:BTCUSDT'])
    r.p.start()
    await r.run(10 * 60_000, 10_000)
    expect(r.srv.requests).toHaveLength(1)
    expect(r.governor.snapshot().code).toBe('UNAUTHORIZED')
    rejected = false
    r.governor.resetAuth()
    await r.run(1_000)
    expect(r.srv.requests).toHaveLength(2)
    expect(r.updates).toHaveLength(1)
  })

  it('stops its loop and leaves no timers behind', async () => {
    const r = await rig(service())
    r.p.setSymbols(crypto(3))
    r.p.start()
    await r.run(2_000)
    r.p.stop()
    const sent = r.srv.requests.length
    await r.run(60_000, 5_000)
    expect(r.srv.requests.length).toBe(sent)
  })
})
