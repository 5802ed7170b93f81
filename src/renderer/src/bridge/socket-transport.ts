import { z } from 'zod'
import type { CommandName } from '../../../shared/bridge'
import type { BridgeTransport } from './bridge-client'
import {
  FIRST_CONNECTION,
  nextConnection,
  retryDelay,
  type Connection,
  type ConnectionEvent,
  type ConnectionState,
} from './bridge-connection'
import { BridgeError } from './bridge-error'

/**
 * The browser host's transport: `{ id, command, params }` requests over its WebSocket, answered
 * by `{ kind: 'response', id, outcome }`, with `{ kind: 'event', event }` frames between. The
 * connection is a state machine (bridge-connection.ts); this file acts on each state it enters.
 * Requests made while not open wait and are sent on open; requests in flight when the socket
 * drops fail with BRIDGE_DOWN (the host may or may not have run them).
 *
 * The page opens it with its own address (the session cookie rides the upgrade); Node (tests,
 * benchmarks) passes a socket factory that sets Origin and Cookie itself.
 */
export interface BridgeSocket {
  readonly readyState: number
  send(data: string): void
  close(): void
  onopen: ((ev: unknown) => void) | null
  onclose: ((ev: unknown) => void) | null
  onerror: ((ev: unknown) => void) | null
  onmessage: ((ev: { data: unknown }) => void) | null
}

export interface SocketTransportOptions {
  url: string
  createSocket: (url: string) => BridgeSocket
  /** Try again after a drop (the page: yes; a test client following one host: no). */
  retry?: boolean
  random?: () => number
  setTimer?: (fn: () => void, ms: number) => unknown
  clearTimer?: (handle: unknown) => void
  baseDelayMs?: number
  maxDelayMs?: number
}

export interface SocketTransport extends BridgeTransport {
  readonly connection: ConnectionState
  /** Called on every state change; `reconnected` is true when open follows an earlier open. */
  onConnection(listener: (state: ConnectionState, reconnected: boolean) => void): () => void
  close(): void
}

const ResponseFrameSchema = z.object({
  kind: z.literal('response'),
  id: z.number().int(),
  outcome: z.unknown(),
})
const EventFrameSchema = z.object({ kind: z.literal('event'), event: z.unknown() })

interface Pending {
  frame: string
  sent: boolean
  resolve: (outcome: unknown) => void
  reject: (err: BridgeError) => void
}

/** ws(s)://<host>/bridge from the page's own address; the session cookie rides the upgrade. */
export function bridgeUrl(location: { protocol: string; host: string }): string {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/bridge`
}

export function socketTransport(options: SocketTransportOptions): SocketTransport {
  const setTimer = options.setTimer ?? ((fn, ms): unknown => setTimeout(fn, ms))
  const clearTimer =
    options.clearTimer ?? ((h): void => clearTimeout(h as ReturnType<typeof setTimeout>))
  const eventListeners = new Set<(raw: unknown) => void>()
  const connectionListeners = new Set<(state: ConnectionState, reconnected: boolean) => void>()
  const pending = new Map<number, Pending>()
  let nextId = 1
  let connection: Connection = FIRST_CONNECTION
  let socket: BridgeSocket | null = null
  let retryTimer: unknown = null

  /** The one way the state changes: the transition, then what entering the new state does. */
  function step(event: ConnectionEvent): void {
    const before = connection
    connection = nextConnection(connection, event)
    if (connection === before) return
    enter(connection)
    const reconnected = connection.state === 'open' && connection.reconnected
    for (const l of connectionListeners) l(connection.state, reconnected)
  }

  function enter(c: Connection): void {
    if (c.state === 'connecting') openSocket()
    else if (c.state === 'open') sendWaiting()
    else if (c.state === 'waiting') {
      failInFlight('Disconnected from Tickdesk host')
      const delay = retryDelay(
        c.tries,
        options.random ?? Math.random,
        options.baseDelayMs ?? 250,
        options.maxDelayMs ?? 5000,
      )
      retryTimer = setTimer(() => step({ type: 'retry' }), delay)
    } else shutDown()
  }

  function openSocket(): void {
    const s = options.createSocket(options.url)
    socket = s
    s.onopen = (): void => step({ type: 'opened' })
    s.onmessage = (ev): void => receive(ev.data)
    // A close event always follows an error; the drop is handled there.
    s.onerror = (): void => undefined
    s.onclose = (): void => {
      if (socket !== s) return
      socket = null
      step({ type: 'dropped', retry: options.retry ?? true })
    }
  }

  function sendWaiting(): void {
    for (const p of pending.values()) {
      if (p.sent || socket === null) continue
      socket.send(p.frame)
      p.sent = true
    }
  }

  function failInFlight(message: string, all = false): void {
    for (const [id, p] of pending) {
      if (!p.sent && !all) continue
      pending.delete(id)
      p.reject(new BridgeError('BRIDGE_DOWN', message))
    }
  }

  function shutDown(): void {
    if (retryTimer !== null) clearTimer(retryTimer)
    retryTimer = null
    failInFlight('Bridge closed', true)
    const s = socket
    socket = null
    s?.close()
  }

  function receive(data: unknown): void {
    if (typeof data !== 'string') return
    let raw: unknown
    try {
      raw = JSON.parse(data)
    } catch {
      return
    }
    // Told apart by `kind` first: a price event tried against the response schema failed every
    // time, and a failed parse builds its issue objects (per-frame garbage at rest).
    const kind = typeof raw === 'object' && raw !== null ? (raw as { kind?: unknown }).kind : null
    if (kind === 'event') {
      const frame = EventFrameSchema.safeParse(raw)
      if (frame.success) for (const l of eventListeners) l(frame.data.event)
      return
    }
    const response = ResponseFrameSchema.safeParse(raw)
    if (!response.success) return
    const p = pending.get(response.data.id)
    if (p === undefined) return
    pending.delete(response.data.id)
    p.resolve(response.data.outcome)
  }

  function request(
    name: CommandName,
    params: unknown,
  ): { outcome: Promise<unknown>; cancel(): void } {
    const id = nextId++
    if (connection.state === 'closed')
      return {
        outcome: Promise.reject(new BridgeError('BRIDGE_DOWN', 'Bridge closed')),
        cancel: () => undefined,
      }
    const outcome = new Promise<unknown>((resolve, reject) => {
      pending.set(id, {
        frame: JSON.stringify({ id, command: name, params }),
        sent: false,
        resolve,
        reject,
      })
    })
    if (connection.state === 'open') sendWaiting()
    return { outcome, cancel: () => pending.delete(id) }
  }

  enter(connection)

  return {
    host: 'web',
    get connection(): ConnectionState {
      return connection.state
    },
    request,
    subscribe(listener): () => void {
      eventListeners.add(listener)
      return () => eventListeners.delete(listener)
    },
    onConnection(listener): () => void {
      connectionListeners.add(listener)
      return () => connectionListeners.delete(listener)
    },
    close: () => step({ type: 'close' }),
  }
}
