/**
 * The service's plans as the interface states them (spec: Limits, "Typical RPM by plan" and
 * "WebSocket caps (approximate)"), kept here and not borrowed from the client: the simulator plays
 * the other side of the wire, so a wrong number in the client must not pass every test.
 * The spec names each of the first two plans twice ("Free / Trial", "Growth / Standard").
 */
export type SimPlan = 'free' | 'growth' | 'pro' | 'enterprise'

export interface SimPlanLimits {
  /** The names the spec gives the plan. */
  names: readonly string[]
  rpm: number
  wsConnections: number
  wsSymbols: number
}

export const SIM_PLANS: Readonly<Record<SimPlan, SimPlanLimits>> = {
  free: { names: ['Free', 'Trial'], rpm: 30, wsConnections: 1, wsSymbols: 10 },
  growth: { names: ['Growth', 'Standard'], rpm: 120, wsConnections: 3, wsSymbols: 25 },
  pro: { names: ['Pro'], rpm: 600, wsConnections: 10, wsSymbols: 50 },
  enterprise: { names: ['Enterprise'], rpm: 3000, wsConnections: 50, wsSymbols: 200 },
}
