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
    /** Once `n` switches are asked, answers the oldest (the host takes them in turn). */
    answerOldestOf: async (n: number) => {
      await vi.waitFor(() => expect(answers).toHaveLength(n))
      answers.shift()?.(true)
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

  it('keeps the last clicked list through the host catching up on quick clicks back and forth', async () => {
    const host = slowHost()
    const app = started(host.api)
    // b, a, b: three clicks before the host has answered any (it takes 100 ms and more each at
    // 5000 symbols); the first and the last name the same list.
    const clicks = [app.showWatchlist('b'), app.showWatchlist('a'), app.showWatchlist('b')]
    expect(app.activeWatchlist?.id).toBe('b')
    app.handle({ type: 'watchlists', watchlists: lists, activeWatchlistId: 'b' })
    await host.answerOldestOf(3)
    await clicks[0]
    // The host's event for the second click comes while it has yet to take the third.
    app.handle({ type: 'watchlists', watchlists: lists, activeWatchlistId: 'a' })
    expect(app.activeWatchlist?.id).toBe('b')
    await host.answerOldestOf(2)
    await clicks[1]
    app.handle({ type: 'watchlists', watchlists: lists, activeWatchlistId: 'b' })
    await host.answerOldestOf(1)
    await clicks[2]
    expect(app.activeWatchlist?.id).toBe('b')
    // Switched: the host's list shows again.
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
