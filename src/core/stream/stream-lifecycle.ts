import type { StreamState } from '../../shared/status'

/**
 * The stream client's connection lifecycle (stream-client.ts), as ws draws its ready states:
 *
 *            start                   opened
 *   idle ─────────────▶ connecting ─────────▶ open ──┐
 *                        ▲    │  ▲                 │ │ resync / health: a fresh socket
 *                   due  │    │  └─────────────────┘ │
 *                        │    │ dropped / refused     │ dropped (close, error, silence,
 *                        │    ▼                       │ keep-alive, connection cap, 403, 429)
 *                     reconnecting ◀──────────────────┘
 *
 *   any but idle ──unauthorized (401)──▶ closed·unauthorized ──newKey──▶ connecting
 *   any          ──stop──────────────▶ closed·stopped      ──start───▶ connecting
 *   connecting, open, reconnecting ──newKey / healthFailed──▶ connecting
 *
 * `connecting` also covers waiting for the budget or for the last socket to finish closing (one
 * socket at the service: spec, Limits); `reconnecting` waits out a RetrySchedule delay whose
 * cause the state keeps. Only `transition` moves between states; an event a state does not take
 * leaves it as it is (a late 'opened' after stop() opens nothing).
 */
export type Lifecycle =
  | { readonly state: 'idle' }
  | { readonly state: 'connecting' }
  | { readonly state: 'open' }
  | { readonly state: 'reconnecting' }
  | { readonly state: 'closed'; readonly why: 'stopped' | 'unauthorized' }

export type LifecycleEvent =
  | 'start'
  | 'opened'
  /** The socket went or was refused: wait, then connect again. */
  | 'dropped'
  /** The wait is over. */
  | 'due'
  /** A fresh socket for the same set (resync), or after a failed health check. */
  | 'fresh'
  | 'newKey'
  | 'unauthorized'
  | 'stop'

const IDLE: Lifecycle = { state: 'idle' }
const CONNECTING: Lifecycle = { state: 'connecting' }
const OPEN: Lifecycle = { state: 'open' }
const RECONNECTING: Lifecycle = { state: 'reconnecting' }
const STOPPED: Lifecycle = { state: 'closed', why: 'stopped' }
const UNAUTHORIZED: Lifecycle = { state: 'closed', why: 'unauthorized' }

export const INITIAL: Lifecycle = IDLE

/** The one transition function: the next state, or `from` itself when the event does not apply. */
export function transition(from: Lifecycle, event: LifecycleEvent): Lifecycle {
  if (event === 'stop') return STOPPED
  switch (from.state) {
    case 'idle':
      return event === 'start' ? CONNECTING : from
    case 'closed':
      if (from.why === 'stopped') return event === 'start' ? CONNECTING : from
      return event === 'newKey' ? CONNECTING : from
    case 'connecting':
      if (event === 'opened') return OPEN
      if (event === 'dropped') return RECONNECTING
      if (event === 'unauthorized') return UNAUTHORIZED
      return event === 'newKey' || event === 'fresh' ? CONNECTING : from
    case 'open':
      if (event === 'dropped') return RECONNECTING
      if (event === 'unauthorized') return UNAUTHORIZED
      return event === 'newKey' || event === 'fresh' ? CONNECTING : from
    case 'reconnecting':
      if (event === 'due' || event === 'newKey' || event === 'fresh') return CONNECTING
      if (event === 'dropped') return RECONNECTING
      return event === 'unauthorized' ? UNAUTHORIZED : from
  }
}

/** Whether the lifecycle stopped trying: stopped, or halted by a 401 until a new key. */
export function halted(l: Lifecycle): boolean {
  return l.state === 'closed'
}

/** The state as the status line and the bridge know it (shared/status.ts). */
export function streamState(l: Lifecycle): StreamState {
  return l.state
}
