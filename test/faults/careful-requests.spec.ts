import { afterEach, describe, expect, it } from 'vitest'
import { startSession, type Session } from './harness'

/**
 * The first request as careful as the hundredth: a refused batch is split by market and
 * bisected at once, on the snapshot path as on the poll path, and what the service refused is not
 * asked again. The simulator's stream is kept silent so only REST can show a price, as with a
 * service that does not push these markets.
 */

let s: Session | null = null
afterEach(async () => {
  await s?.close()
  s = null
})

const MULTI = '/api/v1/market/quote'
const priced = (session: Session, key: string): boolean =>
  (session.engine.quotes.get(key)?.last ?? null) !== null

describe('refused batches on the first requests', () => {
  it.each([
    ['names it', true],
    ['does not name it', false],
  ])(
    'shows the valid symbols of a list with one unknown symbol within 2 s and asks for the bad one at most 3 times (the error %s)',
    async (_name, refusalNamesSymbols) => {
      s = await startSession({
        plan: 'free',
        key: (sim) => sim.keys.free,
        symbols: ['fx:EURUSD', 'fx:ZZZNOPE', 'commodity:XAUUSD'],
        sim: { behaviour: { refusalNamesSymbols } },
      })
      const session = s
      session.sim.faults.silence(120_000)
      const shown = await session.until(
        () => priced(session, 'fx:EURUSD') && priced(session, 'commodity:XAUUSD'),
        2_000,
        100,
      )
      expect(shown).toBe(true)
      await session.run(60_000, 500)
      expect(session.sim.stats().symbolAsks.ZZZNOPE).toBeLessThanOrEqual(3)
      expect(session.engine.symbolStatuses()).toContainEqual(
        expect.objectContaining({ key: 'fx:ZZZNOPE', code: 'UNKNOWN_SYMBOL' }),
      )
    },
  )

  it('costs a key lacking two markets at most 3 multi-market requests in 30 s and says so at once', async () => {
    s = await startSession({
      plan: 'pro',
      key: (sim) => sim.keys.cryptoOnly,
      symbols: ['fx:EURUSD', 'futures:ES1!'],
    })
    const session = s
    session.sim.faults.silence(120_000)
    const told = await session.until(
      () =>
        ['fx:EURUSD', 'futures:ES1!'].every((key) =>
          session.engine
            .symbolStatuses()
            .some((st) => st.key === key && st.code === 'MARKET_NOT_ENABLED'),
        ),
      2_000,
      100,
    )
    expect(told).toBe(true)
    await session.run(28_000, 500)
    expect(session.sim.stats().byPath[MULTI]).toBeLessThanOrEqual(3)
  })
})
