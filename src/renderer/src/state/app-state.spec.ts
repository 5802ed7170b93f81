import { describe, expect, it, vi } from 'vitest'
import type { TickdeskApi } from '../../../shared/bridge'
import type { Watchlist } from '../../../shared/watchlist'
import { AppState } from './app-state.svelte'

const lists: Watchlist[] = [
  { id: 'a', name: 'Small', symbols: ['fx:EURUSD'] },
  { id: 'b', name: 'Desk', symbols: ['crypto:ZC00001', 'crypto:ZC00002'] },
]

/** A host whose setActiveWatchlist answers when the test says, with `ok` or a refusal. */
function slowHost() {
  const answers: Array<(ok: boolean) => void> = []
  const api = {
    host: 'web',
    invoke: (command: string) => {
      if (command !== 'setActiveWatchlist') return Promise.resolve([])
      return new Promise((resolve, reject) =>
        answers.push((ok) => (ok ? resolve(null) : reject(new Error('refused')))),
      )
    },
    subscribe: () => () => undefined,
  } as unknown as TickdeskApi
  return {
    api,
    // The host is told after the frame that shows the switch (afterPaint): wait for the ask.
    answer: async (ok: boolean) => {
      await vi.waitFor(() => expect(answers).toHaveLength(1))
      answers.shift()?.(ok)
    },
  }
}

function started(api: TickdeskApi): AppState {
  const app = new AppState(api, { setTimer: () => undefined })
  app.handle({ type: 'watchlists', watchlists: lists, activeWatchlistId: 'a' })
  return app
}

describe('switching lists', () => {
  it('shows the clicked list at once, through a host event sent before the host answered', async () => {
    const host = slowHost()
    const app = started(host.api)
    const switched = app.showWatchlist('b')
    expect(app.activeWatchlist?.id).toBe('b')
    // An event the host sent before it took the click (an add on list a, say).
    app.handle({ type: 'watchlists', watchlists: lists, activeWatchlistId: 'a' })
    expect(app.activeWatchlist?.id).toBe('b')
    app.handle({ type: 'watchlists', watchlists: lists, activeWatchlistId: 'b' })
    await host.answer(true)
    await switched
    app.handle({ type: 'watchlists', watchlists: lists, activeWatchlistId: 'a' })
    expect(app.activeWatchlist?.id).toBe('a')
  })

  it('goes back to the host’s list when the host refuses the switch', async () => {
    const host = slowHost()
    const app = started(host.api)
    const switched = app.showWatchlist('b')
    expect(app.activeWatchlist?.id).toBe('b')
    await host.answer(false)
    await expect(switched).rejects.toThrow('refused')
    expect(app.activeWatchlist?.id).toBe('a')
  })
})

describe('the time a trader marks', () => {
  it('is the clock at the mark, where `now` keeps the last once-a-second tick', () => {
    let t = 1_000_000
    const timers: Array<() => void> = []
    const app = new AppState(slowHost().api, {
      now: () => t,
      setTimer: (fn) => timers.push(fn),
    })
    const ticked = app.now
    t += 900
    expect(app.now).toBe(ticked)
    expect(app.currentTime()).toBe(ticked + 900)
  })
})
