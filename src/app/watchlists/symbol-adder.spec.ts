import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MarketEngine } from '../../core/engine/engine'
import { waitUntil } from '../../core/testing/ws-test-server'
import { startSimulator, type SimServer } from '../../sim'
import type { SymbolKey } from '../../shared/markets/market'
import { InstrumentCatalogue, parseCatalogue } from '../catalogue/instrument-catalogue'
import shipped from '../../shared/catalogue/instruments.json'
import { AddQueue, addSymbols, type AdderHost } from './symbol-adder'
import type { WatchlistState } from './watchlist-book'

let sim: SimServer
let engine: MarketEngine
beforeEach(async () => {
  sim = await startSimulator({ seed: 3, tickIntervalMs: 1000 })
  // Not started: nothing polls, so every REST call the simulator sees is a probe.
  engine = new MarketEngine({
    baseUrl: sim.url,
    streamUrl: sim.streamUrl,
    apiKey: sim.keys.pro,
    plan: 'pro',
    rpm: 600,
    demo: false,
  })
})
afterEach(async () => {
  await engine.stop()
  await sim.close()
})

/** A host over the real engine's probe and a catalogue that lacks crypto:SOLUSDT. */
function host(symbols: string[] = ['crypto:BTCUSDT']) {
  const catalogue = new InstrumentCatalogue(
    parseCatalogue(shipped).filter((i) => i.key !== 'crypto:SOLUSDT'),
  )
  const saved: SymbolKey[][] = []
  const h: AdderHost & { saved: SymbolKey[][]; state: WatchlistState } = {
    state: { watchlists: [{ id: 'w', name: 'Main', symbols }], activeId: 'w' },
    get lists() {
      return this.state
    },
    setLists: async (next) => {
      h.state = next
    },
    catalogue,
    probe: (key) => engine.probeSymbol(key),
    adopt: (update) => engine.adoptProbedQuote(update),
    saveConfirmed: async (keys) => void saved.push(keys),
    saved,
  }
  return h
}

const rest = (): number => sim.stats().restRequests

describe('addSymbols', () => {
  it('adds a pasted list of 20 catalogue symbols in order, without one quote call', async () => {
    const h = host([])
    const inputs = parseCatalogue(shipped)
      .filter((i) => i.market !== 'agri' && i.key !== 'crypto:SOLUSDT')
      .slice(0, 20)
      .map((i) => i.key)
    const report = await addSymbols(h, 'w', inputs)
    expect(report.added.map((a) => a.key)).toEqual(inputs)
    expect(report.rejected).toEqual([])
    expect(h.state.watchlists[0]?.symbols).toEqual(inputs)
    expect(rest()).toBe(0)
  })

  it('fills a list up to 5000 symbols and refuses the rest of a paste, in order', async () => {
    const held = Array.from(
      { length: 4990 },
      (_, i) => `crypto:ZC${String(i + 1).padStart(5, '0')}`,
    )
    const h = host(held)
    const inputs = parseCatalogue(shipped)
      .filter((i) => i.market !== 'agri' && i.key !== 'crypto:SOLUSDT')
      .slice(0, 20)
      .map((i) => i.key)
    const report = await addSymbols(h, 'w', inputs)
    expect(report.added.map((a) => a.key)).toEqual(inputs.slice(0, 10))
    expect(report.rejected.map((r) => [r.input, r.message])).toEqual(
      inputs.slice(10).map((k) => [k, 'At most 5000 symbols a list']),
    )
    expect(h.state.watchlists[0]?.symbols).toEqual([...held, ...inputs.slice(0, 10)])
  })

  it('checks a symbol the catalogue lacks with exactly one quote call, then remembers it', async () => {
    const h = host()
    const report = await addSymbols(h, 'w', ['crypto:solusdt'])
    expect(report.added).toEqual([{ input: 'crypto:solusdt', key: 'crypto:SOLUSDT', note: '' }])
    expect(rest()).toBe(1)
    expect(h.saved).toEqual([['crypto:SOLUSDT']])
    expect(h.catalogue.search('solusdt')[0]).toMatchObject({
      key: 'crypto:SOLUSDT',
      source: 'confirmed',
    })
  })

  it('refuses a symbol the service does not list, saying "Unknown symbol", and adds the rest', async () => {
    const h = host()
    const report = await addSymbols(h, 'w', ['crypto:NOSUCHCOIN', 'fx:EURUSD'])
    expect(report.rejected).toEqual([
      {
        input: 'crypto:NOSUCHCOIN',
        code: 'UNKNOWN_SYMBOL',
        message: 'Unknown symbol: the service does not list crypto:NOSUCHCOIN (UNKNOWN_SYMBOL)',
      },
    ])
    expect(report.added.map((a) => a.key)).toEqual(['fx:EURUSD'])
    expect(rest()).toBe(1)
  })

  it('says what it did with each entry: bare codes, duplicates, already present, unreadable', async () => {
    const h = host(['crypto:BTCUSDT'])
    const report = await addSymbols(h, 'w', [
      '600519',
      'BTCUSDT',
      'cn:600519',
      'stocks:AAPL',
      'zzzz',
    ])
    expect(report.added.map((a) => a.key)).toEqual(['cn:600519'])
    expect(report.present).toEqual([{ input: 'BTCUSDT', key: 'crypto:BTCUSDT' }])
    expect(report.rejected.map((r) => [r.input, r.code])).toEqual([
      ['stocks:AAPL', 'INVALID_INPUT'],
      ['zzzz', 'NOT_FOUND'],
    ])
  })

  it('adds a symbol it could not check (service down) with a note, and does not confirm it', async () => {
    const h = host()
    sim.faults.down()
    const report = await addSymbols(h, 'w', ['crypto:SOLUSDT'])
    expect(report.added[0]?.key).toBe('crypto:SOLUSDT')
    expect(report.added[0]?.note).toMatch(/not checked now/)
    expect(h.saved).toEqual([])
  })

  it('costs one quote call for a symbol it had to check: the probed quote is its first price', async () => {
    const h = host(['crypto:BTCUSDT'])
    const watching = new Set<SymbolKey>()
    // As the app does: the list change makes the running engine watch what it lists.
    h.setLists = async (next) => {
      h.state = next
      for (const key of next.watchlists.flatMap((w) => w.symbols)) {
        if (watching.has(key)) continue
        watching.add(key)
        engine.watch(key)
      }
    }
    await h.setLists(h.state)
    engine.start()
    const asks = (symbol: string): number => sim.stats().symbolAsks[symbol] ?? 0
    // Streaming, and the first snapshot of what streams is done.
    await waitUntil(
      () => sim.stats().subscribedSymbols > 0 && asks('BTCUSDT') > 0,
      'the stream and its first snapshot',
    )
    await addSymbols(h, 'w', ['crypto:SOLUSDT'])
    const quote = engine.quotes.get('crypto:SOLUSDT')
    expect(quote?.last).toEqual(expect.any(Number))
    expect(quote?.prevClose).toEqual(expect.any(Number))
    await waitUntil(() => sim.stats().subscribedSymbols > 1, 'SOLUSDT on the stream')
    await new Promise((r) => setTimeout(r, 1000))
    expect(asks('SOLUSDT')).toBe(1)
  })

  it('runs queued adds in order, each on the list the previous one left', async () => {
    const h = host([])
    const queue = new AddQueue()
    const slow = queue.run(() => addSymbols(h, 'w', ['crypto:SOLUSDT']))
    const fast = queue.run(() => addSymbols(h, 'w', ['fx:EURUSD']))
    await Promise.all([slow, fast])
    expect(h.state.watchlists[0]?.symbols).toEqual(['crypto:SOLUSDT', 'fx:EURUSD'])
  })
})

describe('the add report', () => {
  it('lists refusals in the order they were given, whichever check refused them', async () => {
    const h = host()
    const report = await addSymbols(h, 'w', ['crypto:NOSUCHCOIN', 'gibberish', 'fx:EURUSD'])
    expect(report.rejected.map((r) => r.input)).toEqual(['crypto:NOSUCHCOIN', 'gibberish'])
  })
})
