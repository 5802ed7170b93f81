import type { SimMarket } from './instruments'

/**
 * When the simulator's markets trade. The hours are the client's shipped timetables
 * (src/shared/markets/market-timetables.ts), injected by the host that starts the simulator (the demo
 * feed of the CLI, `tickdesk web` and Electron) rather than copied here: a second table of venue
 * hours and holidays would drift from the one the rows read, and the desk would again show a
 * market trading while it says "Closed". The simulator imports only src/util, so it
 * takes the answer as a function. Without one it trades around the clock, as the test fixture
 * always has (tests that mean hours pass them).
 */
export interface TradingWindow {
  /** Whether the market trades at the instant asked (regular, pre- or post-market hours). */
  trading: boolean
  /** Epoch ms when that stops being true; null when never (24/7) or beyond the timetable. */
  until: number | null
}

export type MarketHours = (market: SimMarket, symbol: string, at: number) => TradingWindow

export const AROUND_THE_CLOCK: MarketHours = () => ({ trading: true, until: null })
