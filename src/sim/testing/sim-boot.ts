import { afterEach } from 'vitest'
import { startSimulator, type SimOptions, type SimServer } from '../index'

/**
 * The simulator specs' start: `const boot = simBooter()` at the top of a spec file; boot() starts
 * a simulator ticking every 10 ms (options override it), closed after each test.
 */
export function simBooter(): (o?: SimOptions) => Promise<SimServer> {
  let sim: SimServer | null = null
  afterEach(async () => {
    await sim?.close()
    sim = null
  })
  return async (o = {}) => {
    sim = await startSimulator({ tickIntervalMs: 10, ...o })
    return sim
  }
}
