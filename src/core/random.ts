/** The seeded random and backoff jitter live in src/util, shared with the simulator. */
export * from '../util/random'
