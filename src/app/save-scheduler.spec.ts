import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CandleBuilder } from '../core/bars/candle-builder'
import { FakeClock } from '../core/clock'
import { BarStore } from '../core/persistence/bar-store'
import { defaultWriter, type AtomicWriter } from '../core/persistence/atomic-file'
import { openDataStores, type DataStores } from '../core/persistence/stores'
import { blankQuote, type Quote } from '../shared/quote'
import { SettingsSchema } from '../shared/settings'
import { NoticeBoard } from './notice-board'
import { BAR_CACHE_EVERY_MS, QUOTE_CACHE_EVERY_MS, SaveScheduler } from './save-scheduler'

/** A real data folder whose writes are counted per file, and can be made to fail (a full disk). */
function setup(): {
  clock: FakeClock
  stores: DataStores
  writes: (file: string) => number
  notices: NoticeBoard
  saves: SaveScheduler
  quotes: Quote[]
  candles: CandleBuilder
  /** What the data folder seeded into the feed (its cached quotes, per source). */
  seeded: Quote[][]
  fillDisk(full: boolean): void
} {
  const clock = new FakeClock()
  const counts = new Map<string, number>()
  let full = false
  const writer: AtomicWriter = (path, data, mode) => {
    if (full) return Promise.reject(Object.assign(new Error('ENOSPC'), { code: 'ENOSPC' }))
    counts.set(basename(path), (counts.get(basename(path)) ?? 0) + 1)
    return defaultWriter(path, data, mode)
  }
  const stores = openDataStores(mkdtempSync(join(tmpdir(), 'tickdesk-saves-')), { writer })
  const notices = new NoticeBoard(clock, () => undefined)
  const quotes: Quote[] = []
  const candles = new CandleBuilder()
  const seeded: Quote[][] = []
  const saves = new SaveScheduler({ stores, clock, notices, keep: () => true })
  saves.useSource(
    { candles, quotes: { all: () => quotes }, seedFromCache: (q) => void seeded.push(q) },
    DEMO,
  )
  return {
    clock,
    stores,
    writes: (file) => counts.get(file) ?? 0,
    notices,
    saves,
    quotes,
    candles,
    seeded,
    fillDisk: (on) => void (full = on),
  }
}

const DEMO = { demo: true, baseUrl: 'http://127.0.0.1:1' }
const LIVE = { demo: false, baseUrl: 'https://api.example.test/v1' }

/** A few turns of the event loop: time for a write that should not happen to show up. */
const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 20))

const priced = (last: number): Quote => ({ ...blankQuote('crypto', 'BTCUSDT', 0, 'stream'), last })

describe('SaveScheduler', () => {
  it('writes the quote cache at most once every 5 s while prices move (first 5 s after start), with the newest prices', async () => {
    const s = setup()
    s.quotes.push(priced(1))
    s.saves.quotesChanged()
    s.clock.advance(QUOTE_CACHE_EVERY_MS - 1)
    await settle()
    expect(s.writes('quotes-cache.demo.json')).toBe(0)
    s.clock.advance(1)
    await expect.poll(() => s.writes('quotes-cache.demo.json')).toBe(1)
    for (let i = 2; i <= 100; i++) {
      s.quotes[0] = priced(i)
      s.saves.quotesChanged()
      s.clock.advance(40)
    }
    await settle()
    expect(s.writes('quotes-cache.demo.json')).toBe(1)
    s.clock.advance(QUOTE_CACHE_EVERY_MS)
    await expect.poll(() => s.writes('quotes-cache.demo.json')).toBe(2)
    // The count goes up as the write starts: wait for the file to hold it.
    await expect
      .poll(async () => (await s.stores.quotesOf(DEMO).load()).value.map((q) => q.last))
      .toEqual([100])
  })

  it('writes the built bars every 5 min while prices move, and once more on close', async () => {
    const s = setup()
    const { candles } = s
    const log = join(s.stores.dir, 'bars', 'demo', 'log.ndjson')
    const saved = async (): Promise<number[]> => {
      const again = new CandleBuilder()
      again.import((await new BarStore(join(s.stores.dir, 'bars', 'demo')).load()).series)
      return again.bars('crypto:BTCUSDT', '1m', 10).map((b) => b.close)
    }
    candles.add('crypto:BTCUSDT', 1000, 1)
    s.saves.quotesChanged()
    s.clock.advance(BAR_CACHE_EVERY_MS - 1)
    await settle()
    expect(existsSync(log)).toBe(false)
    s.clock.advance(1)
    await expect.poll(() => existsSync(log)).toBe(true)
    expect(await saved()).toEqual([1])
    candles.add('crypto:BTCUSDT', 2000, 2)
    s.saves.quotesChanged()
    await s.saves.close()
    expect(await saved()).toEqual([2])
  })

  it('writes nothing while no price moves', async () => {
    const s = setup()
    s.clock.advance(10 * QUOTE_CACHE_EVERY_MS)
    await settle()
    expect(s.writes('quotes-cache.demo.json')).toBe(0)
  })

  it('writes the quote cache once more on close, due or not', async () => {
    const s = setup()
    s.quotes.push(priced(7))
    await s.saves.close()
    expect((await s.stores.quotesOf(DEMO).load()).value.map((q) => q.last)).toEqual([7])
  })

  it('turns a failed save into a notice, keeps the value, and the next save writes it', async () => {
    const s = setup()
    s.fillDisk(true)
    s.quotes.push(priced(3))
    s.saves.quotesChanged()
    s.clock.advance(QUOTE_CACHE_EVERY_MS)
    await expect.poll(() => s.notices.all().map((n) => n.code)).toEqual(['DISK_FULL'])
    await s.saves.now(() => s.stores.settings.save(SettingsSchema.parse({})))
    expect(s.notices.all()).toHaveLength(1)
    s.fillDisk(false)
    s.saves.quotesChanged()
    s.clock.advance(QUOTE_CACHE_EVERY_MS)
    await expect.poll(() => s.writes('quotes-cache.demo.json')).toBe(1)
    // The count goes up as the write starts: wait for the file to hold it.
    await expect
      .poll(async () => (await s.stores.quotesOf(DEMO).load()).value.map((q) => q.last))
      .toEqual([3])
  })

  it("keeps the demo's prices and a service's apart: a switch saves the one left, and seeds each only its own", async () => {
    const s = setup()
    s.quotes.push(priced(5))
    const live: Quote[] = []
    const liveSeeded: Quote[][] = []
    const liveFeed = {
      candles: new CandleBuilder(),
      quotes: { all: () => live },
      seedFromCache: (q: Quote[]) => void liveSeeded.push(q),
    }
    s.saves.useSource(liveFeed, LIVE)
    await expect.poll(() => liveSeeded.length).toBe(1)
    // The service has no cache yet: the demo's price is not shown in its rows.
    expect(liveSeeded[0]).toEqual([])
    expect((await s.stores.quotesOf(DEMO).load()).value.map((q) => q.last)).toEqual([5])
    live.push(priced(60_000))
    await s.saves.close()
    expect((await s.stores.quotesOf(LIVE).load()).value.map((q) => q.last)).toEqual([60_000])
    expect((await s.stores.quotesOf(DEMO).load()).value.map((q) => q.last)).toEqual([5])
    // The next start on the demo: its own last price, not the service's.
    const next = new SaveScheduler({
      stores: s.stores,
      clock: s.clock,
      notices: s.notices,
      keep: () => true,
    })
    const again: Quote[][] = []
    const demoFeed = {
      candles: new CandleBuilder(),
      quotes: { all: () => [] },
      seedFromCache: (q: Quote[]) => void again.push(q),
    }
    next.useSource(demoFeed, DEMO)
    await expect.poll(() => again.length).toBe(1)
    expect(again[0]?.map((q) => q.last)).toEqual([5])
    await next.close()
  })
})
