import { describe, expect, it } from 'vitest'
import { MARKETS, symbolKey, type Market, type SymbolKey } from '../../shared/markets/market'
import type { EndpointFamily } from '../rest/market-routes'
import type { Batch } from './poll-batch'
import { PollQueue } from './poll-queue'
import { PollVerdicts } from './poll-verdicts'
import { QUIET_POLL_MS } from './session-pacing'
import { seededRandom, type Random } from '../random'
import { NaivePollQueue } from '../testing/naive-poll-queue'

/**
 * nextBatch no longer sorts the whole poll set before every call; these runs drive it and the
 * queue as it was before (testing/naive-poll-queue.ts) through the same random life on a fixed
 * clock (lists replaced, background and slow symbols, snapshots, refused parts, bad symbols,
 * blocked markets, agri on its kline, calls in flight, answers, hours crossing market opens and
 * closes) and ask for the same batch at every step.
 */
const FAMILIES: EndpointFamily[] = ['crypto', 'usdt-futures', 'multi']

function universe(): SymbolKey[] {
  const keys: SymbolKey[] = []
  for (const market of MARKETS) for (let i = 0; i < 40; i++) keys.push(symbolKey(market, `S${i}`))
  // Symbols with timetables of their own (market-timetables BY_SYMBOL) next to the defaults.
  keys.push('futures:ES1!', 'futures:GC1!', 'agri:ZC1!', 'agri:ZS1!', 'commodity:XAUUSD')
  return keys
}

function pick<T>(rnd: Random, items: readonly T[], p: number): T[] {
  return items.filter(() => rnd() < p)
}

function one<T>(rnd: Random, items: readonly T[]): T {
  return items[Math.floor(rnd() * items.length)] as T
}

interface Twin {
  fast: PollQueue
  naive: NaivePollQueue
  fastVerdicts: PollVerdicts
  naiveVerdicts: PollVerdicts
}

function twin(minIntervalMs: number): Twin {
  const fastVerdicts = new PollVerdicts()
  const naiveVerdicts = new PollVerdicts()
  return {
    fast: new PollQueue(fastVerdicts, minIntervalMs),
    naive: new NaivePollQueue(naiveVerdicts, minIntervalMs),
    fastVerdicts,
    naiveVerdicts,
  }
}

/** Runs `steps` random steps; returns every batch asked for (the two queues agreed on each). */
function life(seed: number, steps: number): Array<Batch | null> {
  const rnd = seededRandom(seed)
  const keys = universe()
  const q = twin(5_000)
  const both = (f: (v: PollVerdicts) => void): void => {
    f(q.fastVerdicts)
    f(q.naiveVerdicts)
  }
  // A Monday 13:00 UTC: Asian markets closed, Europe open, US opening within hours.
  let now = Date.UTC(2026, 10, 23, 13, 0)
  const inFlight: Batch[] = []
  const batches: Array<Batch | null> = []
  for (let step = 0; step < steps; step++) {
    const r = rnd()
    if (r < 0.03) {
      const list = pick(rnd, keys, rnd())
      const background = new Set(pick(rnd, list, rnd() * 0.6))
      q.fast.setSymbols(list, background)
      q.naive.setSymbols(list, background)
    } else if (r < 0.05) {
      const slow = pick(rnd, keys, 0.1)
      q.fast.slow = new Set(slow)
      q.naive.slow = new Set(slow)
    } else if (r < 0.08) {
      const asked = rnd() < 0.2 ? undefined : pick(rnd, keys, 0.05)
      q.fast.pollNow(asked, now)
      q.naive.pollNow(asked, now)
    } else if (r < 0.1) {
      const key = one(rnd, keys)
      const until = now + rnd() * 600_000
      both((v) => v.markBad(key, { code: 'UNKNOWN_SYMBOL', message: '', until }))
    } else if (r < 0.11) {
      const family = one(rnd, FAMILIES)
      const market = one(rnd, MARKETS)
      const until = now + rnd() * 900_000
      both((v) => v.block(family, market, { code: 'FORBIDDEN', message: '', until }))
    } else if (r < 0.12) {
      const agri = one(
        rnd,
        keys.filter((k) => k.startsWith('agri:')),
      )
      both((v) => v.useKline(agri))
    } else if (r < 0.125) {
      const until = now + rnd() * 300_000
      both((v) => v.refuseAgriQuotes(until))
    } else if (r < 0.14 && inFlight.length > 0) {
      // Part of a call in flight refused and queued again (the poller splits before it ends).
      const part = one(rnd, inFlight)
      const parts = [{ ...part, keys: pick(rnd, part.keys, 0.5), split: true }]
      q.fast.queue(parts)
      q.naive.queue(parts)
    } else if (r < 0.15) {
      const family = one(rnd, FAMILIES)
      const cap = 1 + Math.floor(rnd() * 50)
      q.fast.batchCap.set(family, cap)
      q.naive.batchCap.set(family, cap)
    } else if (r < 0.35 && inFlight.length > 0) {
      // A call comes back: most symbols answered, some not, sometimes split.
      const batch = inFlight.splice(Math.floor(rnd() * inFlight.length), 1)[0] as Batch
      const split = rnd() < 0.1
      const sentAt = now - rnd() * 1000
      for (const key of batch.keys) {
        if (rnd() < 0.1) continue
        const a = q.fast.lookup(key)
        const b = q.naive.lookup(key)
        expect(b === undefined).toBe(a === undefined)
        if (a) q.fast.answered(a, sentAt, now)
        if (b) q.naive.answered(b, sentAt, now)
      }
      q.fast.end(batch, split)
      q.naive.end(batch, split)
    } else if (r < 0.4) {
      // Minutes to hours: markets open and close in between.
      now += Math.floor(rnd() * (rnd() < 0.3 ? 4 * 3_600_000 : 600_000))
    } else {
      now += Math.floor(rnd() * 200)
      expect(q.fast.hasUrgentWork(now)).toBe(q.naive.hasUrgentWork(now))
      const fast = q.fast.nextBatch(now)
      const naive = q.naive.nextBatch(now)
      expect(fast, `step ${step}`).toEqual(naive)
      expect(q.fast.nextDueAt(now)).toBe(q.naive.nextDueAt(now))
      batches.push(fast)
      if (fast) {
        q.fast.begin(fast, now)
        q.naive.begin(fast, now)
        inFlight.push(fast)
      }
    }
  }
  return batches
}

describe('PollQueue.nextBatch', () => {
  it('asks for the same batches as the queue that sorted every symbol, on a fixed clock', () => {
    for (let seed = 1; seed <= 4; seed++) {
      const batches = life(seed, 1_000)
      // Each run exercises something: batches of several symbols, kline calls, idle steps.
      expect(batches.some((b) => (b?.keys.length ?? 0) > 10)).toBe(true)
      expect(batches.some((b) => b === null)).toBe(true)
    }
    const all = [1, 2, 3].flatMap((seed) => life(seed, 1_000))
    expect(all.some((b) => b?.kline === true)).toBe(true)
    expect(all.some((b) => b?.split === true)).toBe(true)
    expect(new Set(all.flatMap((b) => (b ? [b.route.family] : []))).size).toBeGreaterThanOrEqual(4)
  })

  it('fills a batch with the most overdue symbols of the head family, never-asked ones in list order', () => {
    const q = new PollQueue(new PollVerdicts(), 5_000)
    const now = Date.UTC(2026, 10, 23, 15, 0)
    const crypto = Array.from({ length: 60 }, (_, i) => symbolKey('crypto', `C${i}`))
    q.setSymbols(['fx:EURUSD', ...crypto])
    const first = q.nextBatch(now)
    // Every symbol is never asked (equally late): the first in the list picks the family.
    expect(first?.route.family).toBe('multi')
    expect(first?.keys).toEqual(['fx:EURUSD'])
    if (first) q.begin(first, now)
    if (first) q.end(first, false)
    const second = q.nextBatch(now)
    expect(second?.keys).toEqual(crypto.slice(0, 50))
    if (second) q.begin(second, now)
    if (second) q.end(second, false)
    // C50..C59 never asked, the first fifty asked just now: the ten go, then nothing is due.
    const third = q.nextBatch(now)
    expect(third?.keys).toEqual(crypto.slice(50))
    if (third) q.begin(third, now)
    if (third) q.end(third, false)
    expect(q.nextBatch(now + 4_999)).toBeNull()
    expect(q.nextDueAt(now)).toBe(now + 5_000)
    // Exactly 5 s on, all equally late: list order again.
    expect(q.nextBatch(now + 5_000)?.keys).toEqual(['fx:EURUSD'])
  })

  describe('topUp', () => {
    /** Asks `keys` at `at` as one call that comes back answered. */
    const ask = (q: PollQueue, keys: SymbolKey[], at: number): void => {
      const b = { ...q.nextBatch(at), keys } as Batch
      q.begin(b, at)
      q.end(b, false)
    }
    const crypto = (from: number, n: number): SymbolKey[] =>
      Array.from({ length: n }, (_, i) => symbolKey('crypto', `C${from + i}`))
    const t0 = Date.UTC(2026, 10, 23, 15, 0)

    it('fills a call with room with symbols of its family falling due soonest, up to 50', () => {
      const q = new PollQueue(new PollVerdicts(), 5_000)
      const [a, b, c, d] = [crypto(0, 20), crypto(20, 20), crypto(40, 20), crypto(60, 20)]
      q.setSymbols([...a, ...b, ...c, ...d, 'usdt-futures:P1'])
      // Four groups of 20 asked 100, 200 and 400 ms apart; a perpetual with them.
      ask(q, a, t0)
      ask(q, b, t0 + 100)
      ask(q, ['usdt-futures:P1'], t0 + 100)
      ask(q, c, t0 + 200)
      ask(q, d, t0 + 400)
      const due = q.nextBatch(t0 + 5_000) as Batch
      expect(due.keys).toEqual(a)
      // b and c fall due within 250 ms and fill the call (10 of c: 50 in all); d and the
      // perpetual (another family) do not ride.
      expect(q.topUp(due, t0 + 5_000, 250).keys).toEqual([...a, ...b, ...c.slice(0, 10)])
      expect(q.topUp(due, t0 + 5_000, 150).keys).toEqual([...a, ...b])
      expect(q.topUp(due, t0 + 5_000, 0).keys).toEqual(a)
    })

    it('merges groups thinned apart into full calls: a round takes fewer calls', () => {
      const q = new PollQueue(new PollVerdicts(), 5_000)
      const groups = Array.from({ length: 10 }, (_, i) => crypto(i * 20, 20))
      q.setSymbols(groups.flat())
      groups.forEach((g, i) => ask(q, g, t0 + i * 100))
      const calls = (from: number, to: number, ride: number): number => {
        let n = 0
        for (let now = from; now < to; now += 25) {
          for (let b = q.nextBatch(now); b !== null; b = q.nextBatch(now)) {
            const full = q.topUp(b, now, ride)
            q.begin(full, now)
            q.end(full, false)
            n++
          }
        }
        return n
      }
      // Without riders the ten groups of 20 stay ten calls a round; with them, four, then four.
      expect(calls(t0 + 5_000, t0 + 10_000, 0)).toBe(10)
      expect(calls(t0 + 10_000, t0 + 15_000, 250)).toBe(4)
      expect(calls(t0 + 15_000, t0 + 20_000, 250)).toBe(4)
    })

    it('takes no symbol falling due because its market opens: before the open it would get the close', () => {
      const q = new PollQueue(new PollVerdicts(), 5_000)
      // Monday 23 November 2026; Hong Kong is at lunch until 13:00 HKT (05:00 UTC).
      const open = Date.UTC(2026, 10, 23, 5, 0)
      q.setSymbols(['hk:00700', 'fx:EURUSD', 'fx:GBPUSD'])
      ask(q, ['hk:00700'], open - 180_000)
      ask(q, ['fx:EURUSD'], open - 5_200)
      ask(q, ['fx:GBPUSD'], open - 5_100)
      expect(q.nextDueAt(open - 200)).toBe(open - 200)
      const due = q.nextBatch(open - 200) as Batch
      expect(due.keys).toEqual(['fx:EURUSD'])
      // GBPUSD rides; 00700, due at the open 200 ms on, waits for it.
      expect(q.topUp(due, open - 200, 250).keys).toEqual(['fx:EURUSD', 'fx:GBPUSD'])
      expect(q.nextBatch(open)?.keys).toContain('hk:00700')
    })

    it('leaves refused parts, kline calls and full calls alone, and takes no symbol in flight', () => {
      const q = new PollQueue(new PollVerdicts(), 5_000)
      const [a, b] = [crypto(0, 20), crypto(20, 20)]
      q.setSymbols([...a, ...b])
      ask(q, a, t0)
      ask(q, b, t0 + 100)
      const due = q.nextBatch(t0 + 5_000) as Batch
      expect(q.topUp({ ...due, split: true }, t0 + 5_000, 250).keys).toEqual(a)
      expect(q.topUp({ ...due, keys: crypto(0, 50) }, t0 + 5_000, 250).keys).toHaveLength(50)
      const inFlight = { ...due, keys: b.slice(0, 5) }
      q.begin(inFlight, t0 + 5_000)
      expect(q.topUp(due, t0 + 5_000, 250).keys).toEqual([...a, ...b.slice(5)])
    })
  })

  it('puts the symbol most overdue for its own pace first (background at a sixth of the pace)', () => {
    const q = new PollQueue(new PollVerdicts(), 5_000)
    const t0 = Date.UTC(2026, 10, 23, 15, 0)
    const markets: Market[] = ['crypto', 'crypto']
    const [fg, bg] = markets.map((m, i) => symbolKey(m, `X${i}`)) as [SymbolKey, SymbolKey]
    q.setSymbols([bg, fg], new Set([bg]))
    const all = q.nextBatch(t0)
    expect(all?.keys).toEqual([bg, fg])
    if (all) q.begin(all, t0)
    if (all) q.end(all, false)
    // 40 s on: the foreground one is 8 rounds late, the background one 1.33.
    expect(q.nextBatch(t0 + 40_000)?.keys).toEqual([fg, bg])
  })

  it('stops asking a symbol whose market closed after it was asked, until it reopens', () => {
    const fast = new PollQueue(new PollVerdicts(), 5_000)
    const naive = new NaivePollQueue(new PollVerdicts(), 5_000)
    // Monday 23 November 2026; Hong Kong breaks for lunch 12:00-13:00 HKT (04:00-05:00 UTC).
    const asked = Date.UTC(2026, 10, 23, 3, 59, 58)
    for (const q of [fast, naive]) {
      q.setSymbols(['hk:00700'])
      const b = q.nextBatch(asked)
      expect(b?.keys).toEqual(['hk:00700'])
      if (b) q.begin(b, asked)
      if (b) q.end(b, false)
      // Trading: due 5 s later, and the queue remembers so.
      expect(q.nextDueAt(asked + 1_000)).toBe(asked + 5_000)
      // At lunch it is not due 5 s on, but once per QUIET_POLL_MS (or when the market reopens).
      expect(q.nextBatch(asked + 6_000)).toBeNull()
      expect(q.nextDueAt(asked + 6_000)).toBe(asked + QUIET_POLL_MS)
    }
  })

  it('lets closed markets ride along at the open pace in calls with room, never past the cap', () => {
    const q = new PollQueue(new PollVerdicts(), 5_000)
    // Monday 23 November 2026, 15:00 UTC: Hong Kong and Shanghai closed, FX trading.
    const t0 = Date.UTC(2026, 10, 23, 15, 0)
    const send = (at: number): Batch | null => {
      const next = q.nextBatch(at)
      const b = next && q.withQuietRiders(next, at)
      if (b) q.begin(b, at)
      if (b) q.end(b, false)
      return b
    }
    q.setSymbols(['fx:EURUSD', 'hk:00700', 'cn:600519', 'crypto:BTCUSDT'])
    expect(send(t0)?.keys).toEqual(['fx:EURUSD', 'hk:00700', 'cn:600519'])
    expect(send(t0)?.keys).toEqual(['crypto:BTCUSDT'])
    // 5 s on the FX call goes out anyway: the closed ones ride along; the crypto call has no
    // closed symbol of its family to carry.
    expect(send(t0 + 5_000)?.keys).toEqual(['fx:EURUSD', 'hk:00700', 'cn:600519'])
    expect(send(t0 + 5_000)?.keys).toEqual(['crypto:BTCUSDT'])
    // Without a call of their family they wait for their own slow pace.
    q.setSymbols(['hk:00700', 'cn:600519', 'crypto:BTCUSDT'])
    expect(send(t0 + 10_000)?.keys).toEqual(['crypto:BTCUSDT'])
    expect(q.nextBatch(t0 + 10_000)).toBeNull()
    // A full call takes no riders; one with room takes the longest-waiting first.
    q.setSymbols(['fx:EURUSD', 'hk:00700', 'cn:600519'])
    q.batchCap.set('multi', 2)
    const atCap = send(t0 + 15_000)
    expect(atCap?.keys).toHaveLength(2)
    q.batchCap.set('multi', 50)
    q.setSymbols(['fx:EURUSD', 'fx:USDJPY', 'hk:00700', 'cn:600519'])
    const next = q.nextBatch(t0 + 30_000)
    expect(next?.keys).toEqual(['fx:USDJPY', 'fx:EURUSD'])
    expect(q.withQuietRiders({ ...next!, split: true }, t0 + 30_000).keys).toHaveLength(2)
    expect(
      q
        .withQuietRiders(next!, t0 + 30_000)
        .keys.slice(2)
        .sort(),
    ).toEqual(['cn:600519', 'hk:00700'])
  })
})
