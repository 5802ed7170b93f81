import type { DemoStarter } from '../app/feed/feed-chooser'
import { tradingWindow } from '../shared/markets/trading-hours'
import { startDemoService } from '../sim'

/**
 * The demo service of watch, candles and doctor (the CLI is a host: it injects the simulator).
 * A fixed seed, so demo output is the same from one run to the next; the shipped timetables, so
 * a closed market does not tick.
 */
export const cliDemo: DemoStarter = () =>
  startDemoService({ seed: 1, tickIntervalMs: 250, hours: tradingWindow })
