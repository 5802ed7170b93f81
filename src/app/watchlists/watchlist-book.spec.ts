import { describe, expect, it } from 'vitest'
import { TickdeskError } from '../../core/errors'
import { canonicalKey, WatchlistBook, type WatchlistState } from './watchlist-book'
import { exportWatchlist, importWatchlists } from './watchlist-io'
import { MAX_SYMBOLS_PER_LIST } from '../../shared/watchlist'

const synthetic = (n: number): string[] =>
  Array.from({ length: n }, (_, i) => `crypto:ZC${String(i + 1).padStart(5, '0')}`)

const start = (): WatchlistState => ({
  watchlists: [{ id: 'a', name: 'Crypto', symbols: ['crypto:BTCUSDT', 'crypto:ETHUSDT'] }],
  activeId: 'a',
})

describe('WatchlistBook', () => {
  it('normalises market and symbol case when adding, and ignores duplicates', () => {
    let s = WatchlistBook.addSymbol(start(), 'a', 'CRYPTO:solusdt')
    s = WatchlistBook.addSymbol(s, 'a', 'crypto:SOLUSDT')
    expect(s.watchlists[0]?.symbols).toEqual(['crypto:BTCUSDT', 'crypto:ETHUSDT', 'crypto:SOLUSDT'])
  })

  it('rejects a malformed symbol with a message that shows the expected form, changing nothing', () => {
    const s = start()
    expect(() => WatchlistBook.addSymbol(s, 'a', 'BTCUSDT')).toThrow(/market:SYMBOL/)
    expect(() => WatchlistBook.addSymbol(s, 'a', 'stocks:AAPL')).toThrow(TickdeskError)
    expect(s.watchlists[0]?.symbols).toHaveLength(2)
  })

  it('holds 5000 symbols a list and refuses the next, changing nothing', () => {
    expect(MAX_SYMBOLS_PER_LIST).toBe(5000)
    let s: WatchlistState = { watchlists: [{ id: 'a', name: 'Desk', symbols: [] }], activeId: 'a' }
    s = { ...s, watchlists: [{ id: 'a', name: 'Desk', symbols: synthetic(4999) }] }
    s = WatchlistBook.addSymbol(s, 'a', 'crypto:ZC05000')
    expect(s.watchlists[0]?.symbols).toHaveLength(5000)
    expect(() => WatchlistBook.addSymbol(s, 'a', 'crypto:ZC05001')).toThrow(
      'At most 5000 symbols a list',
    )
    expect(
      WatchlistBook.moveSymbol(s, 'a', 'crypto:ZC00001', 4999).watchlists[0]?.symbols.at(-1),
    ).toBe('crypto:ZC00001')
  })

  it('moves a symbol to a new position and keeps every other symbol', () => {
    const s = WatchlistBook.moveSymbol(start(), 'a', 'crypto:ETHUSDT', 0)
    expect(s.watchlists[0]?.symbols).toEqual(['crypto:ETHUSDT', 'crypto:BTCUSDT'])
  })

  it('says NOT_FOUND for a move of a symbol the list does not hold (a stale row), changing nothing', () => {
    const s = start()
    expect(() => WatchlistBook.moveSymbol(s, 'a', 'fx:EURUSD', 0)).toThrow(
      expect.objectContaining({ code: 'NOT_FOUND' }),
    )
    expect(s.watchlists[0]?.symbols).toEqual(['crypto:BTCUSDT', 'crypto:ETHUSDT'])
  })

  it('reorders each list once, however often a request names it', () => {
    const { state, created } = WatchlistBook.create(start(), 'FX')
    const reordered = WatchlistBook.reorder(state, [created.id, created.id, 'nope', created.id])
    expect(reordered.watchlists.map((w) => w.id)).toEqual([created.id, 'a'])
  })

  it('creates, renames, reorders and deletes lists, keeping a valid active list', () => {
    const { state, created } = WatchlistBook.create(start(), '  Macro ')
    expect(created.name).toBe('Macro')
    expect(state.activeId).toBe(created.id)
    const renamed = WatchlistBook.rename(state, created.id, 'FX')
    const reordered = WatchlistBook.reorder(renamed, [created.id, 'a'])
    expect(reordered.watchlists.map((w) => w.name)).toEqual(['FX', 'Crypto'])
    const removed = WatchlistBook.remove(reordered, created.id)
    expect(removed.activeId).toBe('a')
    expect(() => WatchlistBook.remove(removed, 'nope')).toThrow(/No watchlist/)
  })

  it('canonicalKey accepts futures symbols with ! and rejects spaces', () => {
    expect(canonicalKey('futures:es1!')).toBe('futures:ES1!')
    expect(() => canonicalKey('fx:EUR USD')).toThrow()
  })
})

describe('watchlist import and export', () => {
  it('imports a 5000-symbol list whole from JSON and CSV; CSV keeps the first 5000 of more', () => {
    const keys = synthetic(5000)
    const json = importWatchlists('json', JSON.stringify({ name: 'Desk', symbols: keys }))
    expect(json.watchlists[0]?.symbols).toEqual(keys)
    const rows = synthetic(5001).map((k) => `Desk,${k}`)
    const csv = importWatchlists('csv', `watchlist,symbol\n${rows.join('\n')}\n`)
    expect(csv.watchlists[0]?.symbols).toEqual(keys)
  })

  it('round-trips a list through CSV, quoting names with commas', () => {
    const list = { id: 'x', name: 'Asia, HK', symbols: ['hk:00700', 'cn:600519'] }
    const csv = exportWatchlist(list, 'csv')
    const { watchlists, skipped } = importWatchlists('csv', csv)
    expect(skipped).toEqual([])
    expect(watchlists).toHaveLength(1)
    expect(watchlists[0]?.name).toBe('Asia, HK')
    expect(watchlists[0]?.symbols).toEqual(['hk:00700', 'cn:600519'])
  })

  it('round-trips a list through JSON', () => {
    const list = { id: 'x', name: 'Macro', symbols: ['fx:EURUSD', 'futures:ES1!'] }
    const { watchlists } = importWatchlists('json', exportWatchlist(list, 'json'))
    expect(watchlists[0]?.symbols).toEqual(list.symbols)
  })

  it('skips and reports unreadable symbols instead of failing the import', () => {
    const { watchlists, skipped } = importWatchlists(
      'json',
      JSON.stringify([{ name: 'L', symbols: ['crypto:BTCUSDT', 'garbage', 'moon:X'] }]),
    )
    expect(watchlists[0]?.symbols).toEqual(['crypto:BTCUSDT'])
    expect(skipped).toEqual(['garbage', 'moon:X'])
  })

  it('refuses text that is not JSON or not CSV rows with a clear code', () => {
    expect(() => importWatchlists('json', '{oops')).toThrow(/not valid JSON/)
    expect(() => importWatchlists('json', '{"foo":1}')).toThrow(/Expected/)
    expect(() => importWatchlists('csv', 'only-one-column')).toThrow(/watchlist,symbol/)
  })
})
