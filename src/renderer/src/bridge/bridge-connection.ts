/**
 * The browser host's bridge socket, as a state machine (the Electron bridge has no connection:
 * IPC cannot drop).
 *
 *              opened                   dropped
 *   connecting -------> open ---------------------------+
 *      ^   |                                            v
 *      |   +--dropped (never opened this try)-------> waiting
 *      +-------------- retry (the backoff timer) -------+
 *
 *   any --close--> closed (terminal)
 *   connecting|open --dropped, retry off--> closed (a test client that follows one host)
 *
 * A drop starts a full-jitter backoff: the wait is random in [0, min(maxDelay, base * 2^tries)),
 * `tries` counting drops since the socket was last open. The transport (socket-transport.ts)
 * acts on each state it enters: connecting opens a socket, open sends what waited, waiting sets
 * the timer, closed closes the socket and fails what is in flight.
 */
export type Connection =
  | { state: 'connecting'; tries: number; everOpened: boolean }
  | { state: 'open'; reconnected: boolean }
  | { state: 'waiting'; tries: number; everOpened: boolean }
  | { state: 'closed' }

export type ConnectionState = Connection['state']

export type ConnectionEvent =
  { type: 'opened' } | { type: 'dropped'; retry: boolean } | { type: 'retry' } | { type: 'close' }

export const FIRST_CONNECTION: Connection = { state: 'connecting', tries: 0, everOpened: false }

/** The one transition function; an event a state does not take leaves it as it is. */
export function nextConnection(c: Connection, e: ConnectionEvent): Connection {
  if (c.state === 'closed') return c
  if (e.type === 'close') return { state: 'closed' }
  switch (c.state) {
    case 'connecting':
      if (e.type === 'opened') return { state: 'open', reconnected: c.everOpened }
      if (e.type === 'dropped')
        return e.retry
          ? { state: 'waiting', tries: c.tries + 1, everOpened: c.everOpened }
          : { state: 'closed' }
      return c
    case 'open':
      if (e.type === 'dropped')
        return e.retry ? { state: 'waiting', tries: 1, everOpened: true } : { state: 'closed' }
      return c
    case 'waiting':
      return e.type === 'retry'
        ? { state: 'connecting', tries: c.tries, everOpened: c.everOpened }
        : c
  }
}

/** The wait before the next try: full jitter under a cap doubling with each failed try. */
export function retryDelay(
  tries: number,
  random: () => number,
  baseMs: number,
  maxMs: number,
): number {
  const cap = Math.min(maxMs, baseMs * 2 ** Math.max(0, tries - 1))
  return Math.floor(random() * cap)
}
