/**
 * The embedded market simulator: the whole service interface (docs/market-data-interface.md)
 * over real HTTP and WebSocket on 127.0.0.1, seeded, with plans, keys, limits and fault hooks.
 * Demo mode's data source and the project's test fixture.
 */
import { DEMO_KEYS } from './plans-and-keys'

export { DEFAULT_BEHAVIOUR, type ServiceBehaviour } from './behaviour'
export { startDemoService, type DemoServiceOptions, type SimDemoService } from './demo-service'
export { DIALECTS, type Dialect, type DialectName } from './dialects'
export type { FaultHooks } from './faults'
export { AROUND_THE_CLOCK, type MarketHours, type TradingWindow } from './market/market-hours'
export { DEMO_KEYS, QUOTA_LIMITED_DAILY, type DemoKeys } from './plans-and-keys'
export { symbolsIn } from './market/instruments'
export { KLINE_SOURCE } from './rest-routes'
export { startSimulator, type SimDay, type SimOptions, type SimServer } from './server'
export type { SimStats } from './stats'
export { STREAM_PATH } from './stream'

/** The key demo mode uses: the pro plan's. */
export const DEMO_KEY: string = DEMO_KEYS.pro
