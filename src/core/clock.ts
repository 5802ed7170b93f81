/**
 * The injected clock lives in src/util, below every layer, so the simulator (which imports
 * nothing from the client) and the client share one implementation.
 */
export * from '../util/clock'
