import { z } from 'zod'
import {
  COMMANDS,
  CommandOutcomeSchema,
  EventSchema,
  isCommandName,
  type BridgeEvent,
  type CommandName,
  type CommandParams,
  type CommandResult,
  type TickdeskApi,
} from '../../../shared/bridge'
import { BridgeError } from './bridge-error'
import { commandDeadline } from './deadlines'

/**
 * The bridge API over the browser host's WebSocket (`/bridge?token=T`), the same TickdeskApi the
 * Electron preload exposes. Every incoming frame is parsed against the contract (events by
 * EventSchema, results by the command's result schema); anything else is dropped.
 *
 * Connection states:
 *   connecting --open--> open --close/error--> waiting --timer (full-jitter backoff)--> connecting
 *   any --close()--> closed (terminal)
 * Requests made while not open are queued and sent on open; requests in flight when the socket
 * drops are rejected with BRIDGE_DOWN (the host may or may not have run them).
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

export type ConnectionState = 'connecting' | 'open' | 'waiting' | 'closed'

export interface WebApi extends TickdeskApi {
  readonly connection: ConnectionState
  /** Called on every state change; `reconnected` is true when open follows an earlier open. */
  onConnection(listener: (state: ConnectionState, reconnected: boolean) => void): () => void
  close(): void
}

export interface WebApiOptions {
  url?: string
  createSocket?: (url: string) => BridgeSocket
  random?: () => number
  setTimer?: (fn: () => void, ms: number) => unknown
  clearTimer?: (handle: unknown) => void
  baseDelayMs?: number
  maxDelayMs?: number
  requestTimeoutMs?: number
}

const ResponseFrameSchema = z.object({
  kind: z.literal('response'),
  id: z.number().int(),
  outcome: CommandOutcomeSchema,
})
const EventFrameSchema = z.object({ kind: z.literal('event'), event: z.unknown() })

/**
 * ws(s)://<host>/bridge from the page's own address. The browser host moves the token from the
 * address into an HttpOnly cookie (the upgrade carries it); an address that still holds one (a
 * dev server) passes it on in ?token=.
 */
export function bridgeUrl(location: { protocol: string; host: string; search: string }): string {
  const token = new URLSearchParams(location.search).get('token')
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:'
  const query = token === null ? '' : `?token=${encodeURIComponent(token)}`
  return `${scheme}//${location.host}/bridge${query}`
}

interface Pending {
  name: CommandName
  resolve: (value: unknown) => void
  reject: (err: BridgeError) => void
  timer: unknown
  sent: boolean
  frame: string
}

export function createWebApi(options: WebApiOptions = {}): WebApi {
  const url = options.url ?? bridgeUrl(window.location)
  const createSocket =
    options.createSocket ??
    ((u: string): BridgeSocket => new WebSocket(u) as unknown as BridgeSocket)
  const random = options.random ?? Math.random
  const setTimer = options.setTimer ?? ((fn, ms): unknown => setTimeout(fn, ms))
  const clearTimer =
    options.clearTimer ?? ((h): void => clearTimeout(h as ReturnType<typeof setTimeout>))
  const baseDelay = options.baseDelayMs ?? 250
  const maxDelay = options.maxDelayMs ?? 5000

  const listeners = new Set<(event: BridgeEvent) => void>()
  const connectionListeners = new Set<(state: ConnectionState, reconnected: boolean) => void>()
  const pending = new Map<number, Pending>()
  let nextId = 1
  let state: ConnectionState = 'connecting'
  let socket: BridgeSocket | null = null
  let attempts = 0
  let everOpened = false
  let retryTimer: unknown = null

  function setState(next: ConnectionState, reconnected = false): void {
    state = next
    for (const l of connectionListeners) l(next, reconnected)
  }

  function settle(id: number): Pending | undefined {
    const p = pending.get(id)
    if (p === undefined) return undefined
    pending.delete(id)
    clearTimer(p.timer)
    return p
  }

  function onMessage(data: unknown): void {
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
      if (!frame.success) return
      const event = EventSchema.safeParse(frame.data.event)
      if (!event.success) return
      for (const l of listeners) l(event.data)
      return
    }
    const response = ResponseFrameSchema.safeParse(raw)
    if (response.success) {
      const p = settle(response.data.id)
      if (p === undefined) return
      const outcome = response.data.outcome
      if (!outcome.ok) {
        p.reject(new BridgeError(outcome.error.code, outcome.error.message))
        return
      }
      const result = COMMANDS[p.name].result.safeParse(outcome.result)
      if (result.success) p.resolve(result.data)
      else p.reject(new BridgeError('BAD_FRAME', `Host sent an invalid ${p.name} result`))
      return
    }
  }

  function connect(): void {
    setState('connecting')
    const s = createSocket(url)
    socket = s
    s.onopen = (): void => {
      attempts = 0
      const reconnected = everOpened
      everOpened = true
      for (const p of pending.values()) {
        if (!p.sent) {
          s.send(p.frame)
          p.sent = true
        }
      }
      setState('open', reconnected)
    }
    s.onmessage = (ev): void => onMessage(ev.data)
    s.onerror = (): void => {
      // A close event always follows; reconnecting happens there.
    }
    s.onclose = (): void => {
      if (socket !== s) return
      socket = null
      for (const [id, p] of pending) {
        if (!p.sent) continue
        settle(id)
        p.reject(new BridgeError('BRIDGE_DOWN', 'Disconnected from Tickdesk host'))
      }
      if (state === 'closed') return
      const cap = Math.min(maxDelay, baseDelay * 2 ** attempts)
      attempts++
      setState('waiting')
      retryTimer = setTimer(connect, Math.floor(random() * cap))
    }
  }

  function invoke<N extends CommandName>(
    name: N,
    params: CommandParams<N>,
  ): Promise<CommandResult<N>> {
    if (!isCommandName(name)) return Promise.reject(new BridgeError('BAD_COMMAND', String(name)))
    if (state === 'closed') return Promise.reject(new BridgeError('BRIDGE_DOWN', 'Bridge closed'))
    const id = nextId++
    const frame = JSON.stringify({ id, command: name, params })
    return new Promise<CommandResult<N>>((resolve, reject) => {
      const p: Pending = {
        name,
        resolve: resolve as (value: unknown) => void,
        reject,
        sent: false,
        frame,
        timer: setTimer(
          () => {
            if (settle(id)) reject(new BridgeError('TIMEOUT', `${name} got no answer`))
          },
          options.requestTimeoutMs ?? commandDeadline(name),
        ),
      }
      pending.set(id, p)
      if (socket !== null && state === 'open') {
        socket.send(frame)
        p.sent = true
      }
    })
  }

  connect()

  return {
    host: 'web',
    get connection(): ConnectionState {
      return state
    },
    invoke,
    subscribe(listener): () => void {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    onConnection(listener): () => void {
      connectionListeners.add(listener)
      return () => connectionListeners.delete(listener)
    },
    close(): void {
      setState('closed')
      if (retryTimer !== null) clearTimer(retryTimer)
      for (const [id, p] of pending) {
        settle(id)
        p.reject(new BridgeError('BRIDGE_DOWN', 'Bridge closed'))
      }
      socket?.close()
      socket = null
    },
  }
}
