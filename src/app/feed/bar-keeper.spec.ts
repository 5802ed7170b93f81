import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CandleBuilder } from '../../core/bars/candle-builder'
import { BarKeeper } from './bar-keeper'

const MIN = 60_000
const T0 = Date.UTC(2026, 10, 2)
const BTC = 'crypto:BTCUSDT'
const DEMO = { demo: true, baseUrl: 'http://127.0.0.1:41234' }
const LIVE = { demo: false, baseUrl: 'https://md.example.com/api' }
const OTHER = { demo: false, baseUrl: 'https://other.example.net' }

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tickdesk-bar-keeper-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

function trade(candles: CandleBuilder, price: number, minutes = 30): void {
  for (let m = 0; m < minutes; m++) candles.add(BTC, T0 + m * MIN + 1000, price)
}

const closes = (candles: CandleBuilder): number[] => [
  ...new Set(candles.bars(BTC, '1m', 1000).map((b) => b.close)),
]

describe('bars kept per data source', () => {
  it('switching from the demo to a live service and back never mixes or overwrites either', async () => {
    const keeper = new BarKeeper({ dataDir: dir, note: () => undefined })
    const demo = new CandleBuilder()
    await keeper.use(demo, DEMO)
    trade(demo, 100)
    await keeper.save()

    // The trader enters a key: the live engine starts with none of the simulator's bars.
    const live = new CandleBuilder()
    await keeper.use(live, LIVE)
    expect(live.bars(BTC, '1m', 1000)).toEqual([])
    trade(live, 50_000)
    await keeper.save()

    // Another service has bars of its own, too.
    const other = new CandleBuilder()
    await keeper.use(other, OTHER)
    expect(other.bars(BTC, '1m', 1000)).toEqual([])

    // Back to the demo (another port, as each demo run has): its own bars, as they were.
    const demoAgain = new CandleBuilder()
    await keeper.use(demoAgain, { ...DEMO, baseUrl: 'http://127.0.0.1:50000' })
    expect(closes(demoAgain)).toEqual([100])
    expect(demoAgain.bars(BTC, '1h', 10)).toHaveLength(1)

    // And the live service's, from a fresh start (a new keeper over the same folder).
    const restarted = new BarKeeper({ dataDir: dir, note: () => undefined })
    const liveAgain = new CandleBuilder()
    await restarted.use(liveAgain, LIVE)
    expect(closes(liveAgain)).toEqual([50_000])
    expect((await readdir(join(dir, 'bars'))).sort()).toEqual([
      'demo',
      expect.stringMatching(/^md\.example\.com-[0-9a-f]{10}$/),
    ])
  })

  it('saves what the engine before built to its own source when the next one starts', async () => {
    const keeper = new BarKeeper({ dataDir: dir, note: () => undefined })
    const demo = new CandleBuilder()
    await keeper.use(demo, DEMO)
    trade(demo, 100, 10)
    // No save was due yet: the switch itself writes the demo's minutes to the demo's folder.
    await keeper.use(new CandleBuilder(), LIVE)
    const back = new CandleBuilder()
    await keeper.use(back, DEMO)
    expect(back.bars(BTC, '1m', 1000)).toHaveLength(10)
  })
})
