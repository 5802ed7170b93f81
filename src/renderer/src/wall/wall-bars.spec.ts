import { describe, expect, it } from 'vitest'
import type { Bar, Interval } from '../../../shared/quote'
import { WallBars, klineSpacingMs, wallBudgetText } from './wall-bars'

function setup() {
  let now = 0
  const timers: Array<{ at: number; fn: () => void }> = []
  const calls: Array<{ key: string; at: number }> = []
  const bars = new WallBars(
    {
      fetch: (key: string, _iv: Interval) => {
        calls.push({ key, at: now })
        return Promise.resolve<Bar[]>([])
      },
      setTimer: (fn, ms) => timers.push({ at: now + ms, fn }),
      plan: () => 'free',
    },
    () => now,
  )
  const advance = async (ms: number): Promise<void> => {
    const until = now + ms
    for (;;) {
      await new Promise((r) => setTimeout(r, 0))
      timers.sort((a, b) => a.at - b.at)
      const t = timers[0]
      if (t === undefined || t.at > until) break
      timers.shift()
      now = t.at
      t.fn()
    }
    now = until
    await new Promise((r) => setTimeout(r, 0))
  }
  return { bars, calls, advance }
}

describe('the wall’s bars within the plan’s budget', () => {
  it('asks each symbol once, spreading candle calls a quarter of the plan’s rate apart', async () => {
    const { bars, calls, advance } = setup()
    bars.want(['futures:ES1!', 'crypto:BTCUSDT', 'futures:NQ1!', 'agri:ZC1!'], '5m')
    await advance(60_000)
    expect(calls.map((c) => c.key)).toEqual([
      'futures:ES1!',
      'crypto:BTCUSDT',
      'futures:NQ1!',
      'agri:ZC1!',
    ])
    // Free: 30 a minute, a quarter of it for the wall: one candle call every 8 s.
    const metered = calls.filter((c) => !c.key.startsWith('crypto'))
    expect(metered.map((c) => c.at)).toEqual([0, 8000, 16_000])
    expect(klineSpacingMs('free')).toBe(8000)
    // Built bars (no candle endpoint) cost no call: asked at once, not spaced.
    expect(calls[1]?.at).toBe(0)
    // Coming back to the wall asks nothing again.
    bars.want(['futures:ES1!', 'crypto:BTCUSDT'], '5m')
    await advance(60_000)
    expect(calls).toHaveLength(4)
    // Another interval is other bars: one call per symbol again.
    bars.want(['futures:ES1!'], '1h')
    await advance(60_000)
    expect(calls).toHaveLength(5)
  })

  it('says what the wall costs on the plan', () => {
    expect(wallBudgetText(['futures:ES1!', 'futures:NQ1!', 'crypto:BTCUSDT'], 1, 'free')).toBe(
      'Wall: 2 candle calls (one per symbol, one every 8.0 s, 1 to go); 1 from bars built from live prices (no call)',
    )
  })
})
