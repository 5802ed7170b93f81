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
  return new BridgeSocketTransport(options)
}

class BridgeSocketTransport implements SocketTransport {
  readonly host = 'web' as const
  private readonly eventListeners = new Set<(raw: unknown) => void>()
  private readonly connectionListeners = new Set<
    (state: ConnectionState, reconnected: boolean) => void
  >()
  private readonly pending = new Map<number, Pending>()
  private nextId = 1
  private state: Connection = FIRST_CONNECTION
  private socket: BridgeSocket | null = null
  private retryTimer: unknown = null
  private readonly setTimer: (fn: () => void, ms: number) => unknown
  private readonly clearTimer: (handle: unknown) => void

  constructor(private readonly options: SocketTransportOptions) {
    this.setTimer = options.setTimer ?? ((fn, ms): unknown => setTimeout(fn, ms))
    this.clearTimer =
      options.clearTimer ?? ((h): void => clearTimeout(h as ReturnType<typeof setTimeout>))
    this.enter(this.state)
  }

  get connection(): ConnectionState {
    return this.state.state
  }

  request(name: CommandName, params: unknown): { outcome: Promise<unknown>; cancel(): void } {
    const id = this.nextId++
    if (this.state.state === 'closed')
      return {
        outcome: Promise.reject(new BridgeError('BRIDGE_DOWN', 'Bridge closed')),
        cancel: () => undefined,
      }
    const frame = JSON.stringify({ id, command: name, params })
    const outcome = new Promise<unknown>((resolve, reject) => {
      this.pending.set(id, { frame, sent: false, resolve, reject })
    })
    if (this.state.state === 'open') this.sendWaiting()
    return { outcome, cancel: () => this.pending.delete(id) }
  }

  subscribe(listener: (raw: unknown) => void): () => void {
    this.eventListeners.add(listener)
    return () => this.eventListeners.delete(listener)
  }

  onConnection(listener: (state: ConnectionState, reconnected: boolean) => void): () => void {
    this.connectionListeners.add(listener)
    return () => this.connectionListeners.delete(listener)
  }

  close(): void {
    this.step({ type: 'close' })
  }

  /** The one way the state changes: the transition, then what entering the new state does. */
  private step(event: ConnectionEvent): void {
    const before = this.state
    this.state = nextConnection(before, event)
    if (this.state === before) return
    this.enter(this.state)
    const reconnected = this.state.state === 'open' && this.state.reconnected
    for (const l of this.connectionListeners) l(this.state.state, reconnected)
  }

  private enter(c: Connection): void {
    if (c.state === 'connecting') this.openSocket()
    else if (c.state === 'open') this.sendWaiting()
    else if (c.state === 'waiting') this.waitToRetry(c.tries)
    else this.shutDown()
  }

  private openSocket(): void {
    const s = this.options.createSocket(this.options.url)
    this.socket = s
    s.onopen = (): void => this.step({ type: 'opened' })
    s.onmessage = (ev): void => this.receive(ev.data)
    // A close event always follows an error; the drop is handled there.
    s.onerror = (): void => undefined
    s.onclose = (): void => {
      if (this.socket !== s) return
      this.socket = null
      this.step({ type: 'dropped', retry: this.options.retry ?? true })
    }
  }

  private waitToRetry(tries: number): void {
    this.failInFlight('Disconnected from Tickdesk host')
    const { random, baseDelayMs, maxDelayMs } = this.options
    const delay = retryDelay(tries, random ?? Math.random, baseDelayMs ?? 250, maxDelayMs ?? 5000)
    this.retryTimer = this.setTimer(() => this.step({ type: 'retry' }), delay)
  }

  private sendWaiting(): void {
    for (const p of this.pending.values()) {
      if (p.sent || this.socket === null) continue
      this.socket.send(p.frame)
      p.sent = true
    }
  }

  /** Fails the requests already sent (all of them when `all`): the host may or may not run them. */
  private failInFlight(message: string, all = false): void {
    for (const [id, p] of this.pending) {
      if (!p.sent && !all) continue
      this.pending.delete(id)
      p.reject(new BridgeError('BRIDGE_DOWN', message))
    }
  }

  private shutDown(): void {
    if (this.retryTimer !== null) this.clearTimer(this.retryTimer)
    this.retryTimer = null
    this.failInFlight('Bridge closed', true)
    const s = this.socket
    this.socket = null
    s?.close()
  }

  private receive(data: unknown): void {
    const frame = readFrame(data)
    if (frame === null) return
    if (frame.kind === 'event') {
      for (const l of this.eventListeners) l(frame.event)
      return
    }
    const p = this.pending.get(frame.id)
    if (p === undefined) return
    this.pending.delete(frame.id)
    p.resolve(frame.outcome)
  }
}

/** A frame from the host, told apart by `kind` first; null for anything else. */
function readFrame(
  data: unknown,
): { kind: 'event'; event: unknown } | { kind: 'response'; id: number; outcome: unknown } | null {
  if (typeof data !== 'string') return null
  let raw: unknown
  try {
    raw = JSON.parse(data)
  } catch {
    return null
  }
  // A price event tried against the response schema failed every time, and a failed parse
  // builds its issue objects (per-frame garbage at rest).
  const kind = typeof raw === 'object' && raw !== null ? (raw as { kind?: unknown }).kind : null
  if (kind === 'event') {
    const event = EventFrameSchema.safeParse(raw)
    return event.success ? { kind: 'event', event: event.data.event } : null
  }
  const response = ResponseFrameSchema.safeParse(raw)
  return response.success ? response.data : null
}
