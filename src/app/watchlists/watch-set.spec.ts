import { describe, expect, it } from 'vitest'
import { PRIORITY } from '../../core/feed/feed-planner'
import { WatchSet, type WatchingEngine } from './watch-set'

/** The engine's watch API as it behaves (ref-counted keys, priorities, quotes dropped). */
function engine(): WatchingEngine & {
  watched: Map<string, number>
  priorities: ReadonlyMap<string, number>
  dropped: string[]
} {
  const e = {
    watched: new Map<string, number>(),
    priorities: new Map<string, number>() as ReadonlyMap<string, number>,
    dropped: [] as string[],
    watch: (key: string) => {
      e.watched.set(key, (e.watched.get(key) ?? 0) + 1)
      return () => {
        const refs = (e.watched.get(key) ?? 1) - 1
        if (refs > 0) e.watched.set(key, refs)
        else e.watched.delete(key)
      }
    },
    setPriorities: (p: ReadonlyMap<string, number>) => void (e.priorities = p),
    quotes: { remove: (key: string) => void e.dropped.push(key) },
  }
  return e
}

describe('the watch set', () => {
  it('tells the engine which watched symbols are slow helpers (FX conversion pairs)', () => {
    const slow: string[][] = []
    const e = { ...engine(), setSlow: (keys: readonly string[]) => void slow.push([...keys]) }
    const set = new WatchSet()
    set.use(e)
    set.sync({ listed: ['hk:00700', 'fx:USDHKD'], alerted: [], pinned: [], slow: ['fx:USDHKD'] })
    set.sync({ listed: ['hk:00700'], alerted: [], pinned: [] })
    expect(slow).toEqual([['fx:USDHKD'], []])
  })

  it('watches each symbol on a list or with an alert once, and releases one that leaves both', () => {
    const e = engine()
    const set = new WatchSet()
    set.use(e)
    set.sync({ listed: ['crypto:BTCUSDT', 'fx:EURUSD'], alerted: ['crypto:BTCUSDT'], pinned: [] })
    set.sync({ listed: ['crypto:BTCUSDT', 'fx:EURUSD'], alerted: ['crypto:BTCUSDT'], pinned: [] })
    expect([...e.watched]).toEqual([
      ['crypto:BTCUSDT', 1],
      ['fx:EURUSD', 1],
    ])
    set.sync({ listed: ['crypto:BTCUSDT'], alerted: [], pinned: [] })
    expect([...e.watched.keys()]).toEqual(['crypto:BTCUSDT'])
    expect(e.dropped).toEqual(['fx:EURUSD'])
    expect(set.has('fx:EURUSD')).toBe(false)
  })

  it('streams what is on screen first, then what can fire an alert, then the tray’s pins', () => {
    const e = engine()
    const set = new WatchSet()
    set.use(e)
    set.setVisible(['fx:EURUSD'])
    set.sync({
      listed: ['crypto:BTCUSDT', 'fx:EURUSD', 'hk:00700', 'index:SPX'],
      alerted: ['hk:00700', 'fx:EURUSD'],
      pinned: ['crypto:BTCUSDT', 'hk:00700'],
    })
    // SPX is only on a list out of view: background (streams last, polled every 30 s).
    expect(Object.fromEntries(e.priorities)).toEqual({
      'fx:EURUSD': PRIORITY.visible,
      'hk:00700': PRIORITY.alerted,
      'crypto:BTCUSDT': PRIORITY.pinned,
      'index:SPX': PRIORITY.background,
    })
  })

  it('puts nothing in the background before a window said what is on screen', () => {
    const e = engine()
    const set = new WatchSet()
    set.use(e)
    set.sync({ listed: ['crypto:BTCUSDT', 'index:SPX'], alerted: [], pinned: [] })
    expect(Object.fromEntries(e.priorities)).toEqual({})
  })

  it('watches everything again on the engine of a new feed', () => {
    const old = engine()
    const set = new WatchSet()
    set.use(old)
    const wanted = { listed: ['crypto:BTCUSDT'], alerted: [], pinned: [] }
    set.sync(wanted)
    const fresh = engine()
    set.use(fresh)
    set.sync(wanted)
    expect([...fresh.watched.keys()]).toEqual(['crypto:BTCUSDT'])
    expect(old.watched.get('crypto:BTCUSDT')).toBe(1)
  })
})
