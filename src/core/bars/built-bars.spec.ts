import { appendFile, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { boundForDisk, DISK_BAR_CAP } from './built-bars'
import { CandleBuilder, type CandleSeries } from './candle-builder'
import { BarStore } from '../persistence/bar-store'

const MIN = 60_000
const HOUR = 60 * MIN
const BTC = 'crypto:BTCUSDT'
/** A whole day's start, so hours and days fall on their buckets. */
const T0 = Date.UTC(2026, 10, 2)

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tickdesk-bars-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

/** One tick a minute for `minutes` from `from`, the price walking up a little. */
function trade(candles: CandleBuilder, key: string, from: number, minutes: number): void {
  for (let m = 0; m < minutes; m++) candles.add(key, from + m * MIN + 1000, 100 + m / 100)
}

/** A session that ran `hours`, saved the way the app does every 5 minutes; then a restart. */
async function sessionThenRestart(key: string, hours: number): Promise<CandleBuilder> {
  const store = new BarStore(dir)
  const candles = new CandleBuilder()
  for (let h = 0; h < hours; h++) {
    for (let five = 0; five < 12; five++) {
      trade(candles, key, T0 + h * HOUR + five * 5 * MIN, 5)
      await store.save(candles)
    }
  }
  const again = new CandleBuilder()
  const loaded = await new BarStore(dir).load()
  expect(loaded.problem).toBeNull()
  again.import(loaded.series)
  return again
}

describe('bars built from live prices, kept across restarts', () => {
  it('keeps every hour of a 30-hour crypto session, past what the 1000-bar minute ring holds', async () => {
    const candles = await sessionThenRestart(BTC, 30)
    const hours = candles.bars(BTC, '1h', 1000)
    expect(hours).toHaveLength(30)
    expect(hours[0]?.openTime).toBe(T0)
    expect(hours[0]?.open).toBe(100)
    expect(hours[0]?.close).toBeCloseTo(100.04, 10) // the last five minutes walk 100 to 100.04
    expect(candles.bars(BTC, '1m', 5000)).toHaveLength(1000)
    expect(candles.bars(BTC, '1d', 10).map((d) => d.openTime)).toEqual([T0, T0 + 24 * HOUR])
  })

  it('leaves a market with a candle endpoint to the service’s own history', async () => {
    const candles = await sessionThenRestart('futures:ES1!', 20)
    // Only what the minute ring holds: nothing was folded into a 1h ring of its own.
    expect(candles.bars('futures:ES1!', '1h', 1000)).toHaveLength(17)
  })

  it('writes only what changed since the last save: one symbol of 100 that traded', async () => {
    const store = new BarStore(dir)
    const candles = new CandleBuilder()
    const keys = Array.from({ length: 100 }, (_, i) => `crypto:S${i}USDT`)
    for (const key of keys) trade(candles, key, T0, 600)
    const first = await store.save(candles)
    expect(first.series).toBe(300) // each symbol's 1m, 1h and 1d
    trade(candles, keys[7] as string, T0 + 600 * MIN, 5)
    const next = await store.save(candles)
    expect(next.series).toBe(3)
    expect(next.bytes * 50).toBeLessThan(first.bytes)
    expect((await store.save(candles)).series).toBe(0)
    const again = new CandleBuilder()
    again.import((await new BarStore(dir).load()).series)
    for (const key of [keys[0] as string, keys[7] as string])
      for (const iv of ['1m', '1h', '1d'] as const)
        expect(again.bars(key, iv, 1000)).toEqual(candles.bars(key, iv, 1000))
  })

  it('compacts the log into the base once it outgrows it, and reads back the same bars', async () => {
    const store = new BarStore(dir, { compactMinBars: 300 })
    const candles = new CandleBuilder()
    trade(candles, BTC, T0, 60)
    await store.save(candles)
    let compacted = false
    for (let m = 60; m < 1200 && !compacted; m++) {
      trade(candles, BTC, T0 + m * MIN, 1)
      compacted = (await store.save(candles)).compacted
    }
    expect(compacted).toBe(true)
    expect((await store.sizes()).log).toBe(0)
    const again = new CandleBuilder()
    again.import((await new BarStore(dir).load()).series)
    expect(again.bars(BTC, '1m', 1000)).toEqual(candles.bars(BTC, '1m', 1000))
    expect(again.bars(BTC, '1h', 1000)).toEqual(candles.bars(BTC, '1h', 1000))
  }, 30_000)

  it('skips a line a crash cut short, keeps the save before it, and appends after it cleanly', async () => {
    const candles = new CandleBuilder()
    trade(candles, BTC, T0, 90)
    await new BarStore(dir).save(candles)
    await appendFile(join(dir, 'log.ndjson'), '{"key":"crypto:TORNUSDT","interval":"1m","t":[1')
    const store = new BarStore(dir)
    const loaded = await store.load()
    expect(loaded.problem).toBeNull()
    const again = new CandleBuilder()
    again.import(loaded.series)
    expect(again.bars(BTC, '1m', 1000)).toHaveLength(90)
    trade(again, BTC, T0 + 90 * MIN, 30)
    await store.save(again)
    const log = await readFile(join(dir, 'log.ndjson'), 'utf8')
    expect(log).not.toContain('TORN')
    const third = new CandleBuilder()
    third.import((await new BarStore(dir).load()).series)
    expect(third.bars(BTC, '1m', 1000)).toHaveLength(120)
  })

  it('reports a damaged line, copies its file aside, and reads every other line', async () => {
    const candles = new CandleBuilder()
    trade(candles, BTC, T0, 90)
    trade(candles, 'crypto:ETHUSDT', T0, 90)
    await new BarStore(dir).save(candles)
    const log = await readFile(join(dir, 'log.ndjson'), 'utf8')
    const lines = log.split('\n')
    lines[0] = '{"key":"crypto:BTCUSDT","interval":"1m","t":"garbled"}'
    await writeFile(join(dir, 'log.ndjson'), lines.join('\n'))
    const loaded = await new BarStore(dir, { now: () => 42 }).load()
    expect(loaded.problem?.code).toBe('STORAGE_CORRUPT')
    expect(loaded.problem?.message).toMatch(/1 damaged line in the saved bars/)
    expect(await readdir(dir)).toContain('log.ndjson.damaged-42')
    const again = new CandleBuilder()
    again.import(loaded.series)
    expect(again.bars('crypto:ETHUSDT', '1m', 1000)).toHaveLength(90)
  })
})

describe('boundForDisk', () => {
  const series = (key: string, interval: CandleSeries['interval'], n: number): CandleSeries => {
    const t = Array.from({ length: n }, (_, i) => i)
    return { key, interval, t, o: t, h: t, l: t, c: t, v: t }
  }

  it('keeps everything under the cap, and cuts minutes before hours past it, newest kept', () => {
    const all = [series('a', '1m', 1000), series('b', '1m', 1000), series('a', '1h', 500)]
    expect(boundForDisk(all, 2500)).toBe(all)
    const cut = boundForDisk(all, 1500)
    expect(cut.map((s) => [s.key, s.interval, s.t.length])).toEqual([
      ['a', '1m', 500],
      ['b', '1m', 500],
      ['a', '1h', 500],
    ])
    expect(cut[0]?.t[0]).toBe(500)
    expect(cut[0]?.c.at(-1)).toBe(999)
    const tight = boundForDisk(all, 300)
    expect(tight.map((s) => [s.interval, s.t.length])).toEqual([['1h', 300]])
  })

  it('holds a 5000-symbol desk under the cap', () => {
    const desk = Array.from({ length: 5000 }, (_, i) => series(`crypto:S${i}`, '1m', 1000))
    const kept = boundForDisk(desk)
    expect(kept.reduce((n, s) => n + s.t.length, 0)).toBeLessThanOrEqual(DISK_BAR_CAP)
  })
})
