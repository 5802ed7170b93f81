import type { SimPlan } from './plans'
import { startSimulator, type SimOptions } from './server'

/**
 * Demo mode's service (architecture: Default data source): the simulator on loopback and the key
 * demo mode uses, the pro plan's. The hosts (Electron's entry, `tickdesk web`, the CLI) start it
 * through the starter they hand the app and the CLI's feed chooser, so neither src/app nor
 * src/core imports the simulator. The shape is the client's DemoService, written here in the
 * simulator's own terms (it imports nothing from the client); the hosts' type check holds the two
 * together.
 */
export interface SimDemoService {
  readonly url: string
  readonly streamUrl: string
  readonly apiKey: string
  readonly plan: SimPlan
  close(): Promise<void>
}

/**
 * `hours`: the venues' timetables, which the hosts hand over from the client's shipped table
 * (market-hours.ts says why); a demo without them trades every market around the clock.
 */
export type DemoServiceOptions = Pick<SimOptions, 'seed' | 'tickIntervalMs' | 'hours'>

const DEMO_PLAN: SimPlan = 'pro'

/** Prices differ from one launch to the next unless a seed is given (tests, the CLI). */
export async function startDemoService(options: DemoServiceOptions = {}): Promise<SimDemoService> {
  const sim = await startSimulator({
    seed: options.seed ?? Date.now() % 100_000,
    tickIntervalMs: options.tickIntervalMs ?? 500,
    hours: options.hours,
    // A desk left on demo all day keeps no record of every price its simulator served.
    recordServed: false,
  })
  return {
    url: sim.url,
    streamUrl: sim.streamUrl,
    apiKey: sim.keys[DEMO_PLAN],
    plan: DEMO_PLAN,
    close: () => sim.close(),
  }
}
