import { describe, expect, it, vi } from 'vitest'
import type { TickdeskApi } from '../../../shared/bridge'
import type { GridPatch } from '../../../shared/grid'
import { SettingsSchema } from '../../../shared/settings'
import { AppState } from '../state/app-state.svelte'
import { GridView } from './grid-view.svelte'

const keyInfo = { hasKey: false, masked: '', storage: 'none', warning: null, warningDetail: null }

describe('GridView', () => {
  it('keeps a header click over a settings event the host sent before it, until answered', async () => {
    const api = { invoke: () => Promise.resolve([]), subscribe: () => () => undefined }
    const app = new AppState(api as unknown as TickdeskApi, { setTimer: () => undefined })
    app.handle({
      type: 'watchlists',
      watchlists: [{ id: 'a', name: 'Desk', symbols: ['crypto:ZC00002', 'crypto:ZC00001'] }],
      activeWatchlistId: 'a',
    })
    const before = SettingsSchema.parse({})
    app.handle({ type: 'settings', settings: before, keyInfo } as never)
    let answer: () => void = () => undefined
    const saved: GridPatch[] = []
    const view = new GridView(app, (patch) => {
      saved.push(patch)
      return new Promise<void>((resolve) => (answer = resolve))
    })
    view.setSort({ column: 'symbol', direction: 'ascending' })
    expect(view.keys).toEqual(['crypto:ZC00001', 'crypto:ZC00002'])
    // The host's echo of an earlier change, sent before it took this one.
    app.handle({ type: 'settings', settings: { ...before }, keyInfo } as never)
    expect(view.sort).toEqual({ column: 'symbol', direction: 'ascending' })
    // Its own echo, then the answer: the host's settings are the truth again.
    const after = { ...before, grid: { ...before.grid, sorts: { a: view.sort } } }
    app.handle({ type: 'settings', settings: after, keyInfo } as never)
    // Saved after the frame that shows the sort (afterPaint).
    await vi.waitFor(() => expect(saved).toHaveLength(1))
    answer()
    await Promise.resolve()
    await Promise.resolve()
    expect(view.sort).toEqual({ column: 'symbol', direction: 'ascending' })
    app.handle({ type: 'settings', settings: before, keyInfo } as never)
    expect(view.sort).toBeNull()
    expect(saved).toHaveLength(1)
  })

  it('sorts by spread in bps of the mid, rows without a bid or an ask last', () => {
    const api = { invoke: () => Promise.resolve([]), subscribe: () => () => undefined }
    const app = new AppState(api as unknown as TickdeskApi, { setTimer: () => undefined })
    const keys = ['crypto:WIDE', 'crypto:NONE', 'crypto:TIGHT', 'crypto:MID']
    app.handle({
      type: 'watchlists',
      watchlists: [{ id: 'a', name: 'Desk', symbols: keys }],
      activeWatchlistId: 'a',
    })
    app.handle({ type: 'settings', settings: SettingsSchema.parse({}), keyInfo } as never)
    // In price the cheap symbol's spread is the smallest; in bps it is the widest.
    app.book.applyPatches([
      { key: 'crypto:WIDE', bid: 0.99, ask: 1.01 },
      { key: 'crypto:NONE', bid: 50 },
      { key: 'crypto:TIGHT', bid: 60_000, ask: 60_001 },
      { key: 'crypto:MID', bid: 100, ask: 100.1 },
    ])
    const view = new GridView(app, () => Promise.resolve())
    view.setSort({ column: 'spread', direction: 'ascending' })
    expect(view.keys).toEqual(['crypto:TIGHT', 'crypto:MID', 'crypto:WIDE', 'crypto:NONE'])
    view.setSort({ column: 'spread', direction: 'descending' })
    expect(view.keys).toEqual(['crypto:WIDE', 'crypto:MID', 'crypto:TIGHT', 'crypto:NONE'])
  })
})
