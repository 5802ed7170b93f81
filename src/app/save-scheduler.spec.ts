import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { FakeClock } from '../core/clock'
import { defaultWriter, type AtomicWriter } from '../core/persistence/atomic-file'
import type { CandleSeries } from '../core/candle-builder'
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
  bars: CandleSeries[]
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
  const bars: CandleSeries[] = []
  const saves = new SaveScheduler({
    stores,
    clock,
    notices,
    quotes: () => quotes,
    bars: () => bars,
  })
  return {
    clock,
    stores,
    writes: (file) => counts.get(file) ?? 0,
    notices,
    saves,
    quotes,
    bars,
    fillDisk: (on) => void (full = on),
  }
}

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
    expect(s.writes('quotes-cache.json')).toBe(0)
    s.clock.advance(1)
    await expect.poll(() => s.writes('quotes-cache.json')).toBe(1)
    for (let i = 2; i <= 100; i++) {
      s.quotes[0] = priced(i)
      s.saves.quotesChanged()
      s.clock.advance(40)
    }
    await settle()
    expect(s.writes('quotes-cache.json')).toBe(1)
    s.clock.advance(QUOTE_CACHE_EVERY_MS)
    await expect.poll(() => s.writes('quotes-cache.json')).toBe(2)
    // The count goes up as the write starts: wait for the file to hold it.
    await expect
      .poll(async () => (await s.stores.quotes.load()).value.map((q) => q.last))
      .toEqual([100])
  })

  it('writes the built bars every 5 min while prices move, and once more on close', async () => {
    const s = setup()
    const minute = (close: number): CandleSeries => ({
      key: 'crypto:BTCUSDT',
      interval: '1m',
      t: [0],
      o: [close],
      h: [close],
      l: [close],
      c: [close],
      v: [0],
    })
    s.bars.push(minute(1))
    s.saves.quotesChanged()
    s.clock.advance(BAR_CACHE_EVERY_MS - 1)
    await settle()
    expect(s.writes('bars-cache.json')).toBe(0)
    s.clock.advance(1)
    await expect.poll(() => s.writes('bars-cache.json')).toBe(1)
    s.bars[0] = minute(2)
    s.saves.quotesChanged()
    await s.saves.close()
    expect(s.writes('bars-cache.json')).toBe(2)
    expect((await s.stores.bars.load()).value[0]?.c).toEqual([2])
  })

  it('writes nothing while no price moves', async () => {
    const s = setup()
    s.clock.advance(10 * QUOTE_CACHE_EVERY_MS)
    await settle()
    expect(s.writes('quotes-cache.json')).toBe(0)
  })

  it('writes the quote cache once more on close, due or not', async () => {
    const s = setup()
    s.quotes.push(priced(7))
    await s.saves.close()
    expect((await s.stores.quotes.load()).value.map((q) => q.last)).toEqual([7])
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
    await expect.poll(() => s.writes('quotes-cache.json')).toBe(1)
    // The count goes up as the write starts: wait for the file to hold it.
    await expect
      .poll(async () => (await s.stores.quotes.load()).value.map((q) => q.last))
      .toEqual([3])
  })
})
