import { describe, expect, it } from 'vitest'
import type { BridgeEvent } from '../../../shared/bridge'
import { BridgeError } from './bridge-error'
import { createBridgeClient } from './bridge-client'
import {
  bridgeUrl,
  socketTransport,
  type BridgeSocket,
  type SocketTransport,
} from './socket-transport'

/** An in-memory socket pair end: the page side of a host we script in the test. */
class LoopSocket implements BridgeSocket {
  readyState = 0
  sent: Array<{ id: number; command: string; params: unknown }> = []
  onopen: ((ev: unknown) => void) | null = null
  onclose: ((ev: unknown) => void) | null = null
  onerror: ((ev: unknown) => void) | null = null
  onmessage: ((ev: { data: unknown }) => void) | null = null
  send(data: string): void {
    this.sent.push(JSON.parse(data) as { id: number; command: string; params: unknown })
  }
  close(): void {
    this.readyState = 3
    this.onclose?.({})
  }
  open(): void {
    this.readyState = 1
    this.onopen?.({})
  }
  deliver(frame: unknown): void {
    this.onmessage?.({ data: JSON.stringify(frame) })
  }
}

function harness(): {
  sockets: LoopSocket[]
  timers: Array<{ fn: () => void; ms: number }>
  api: ReturnType<typeof createBridgeClient> & Pick<SocketTransport, 'onConnection' | 'close'>
} {
  const sockets: LoopSocket[] = []
  const timers: Array<{ fn: () => void; ms: number }> = []
  const transport = socketTransport({
    url: 'ws://127.0.0.1:1/bridge',
    createSocket: () => {
      const s = new LoopSocket()
      sockets.push(s)
      return s
    },
    random: () => 0.5,
    setTimer: (fn, ms) => {
      timers.push({ fn, ms })
      return timers.length
    },
    clearTimer: () => undefined,
  })
  const client = createBridgeClient(transport, {
    setTimer: (fn, ms) => {
      timers.push({ fn, ms })
      return timers.length
    },
    clearTimer: () => undefined,
  })
  const api = Object.assign(client, {
    onConnection: transport.onConnection.bind(transport),
    close: transport.close.bind(transport),
  })
  return { sockets, timers, api }
}

const flush = (): Promise<void> => new Promise((r) => setTimeout(r, 0))

describe('the bridge client over the browser host’s socket', () => {
  it('builds the bridge URL from the page address alone: the session cookie rides the upgrade', () => {
    expect(bridgeUrl({ protocol: 'http:', host: '127.0.0.1:5173' })).toBe(
      'ws://127.0.0.1:5173/bridge',
    )
    expect(bridgeUrl({ protocol: 'https:', host: 'desk.example' })).toBe(
      'wss://desk.example/bridge',
    )
  })

  it('queues a command until the socket opens, then resolves with the parsed result', async () => {
    const { sockets, api } = harness()
    const result = api.invoke('exportWatchlist', { id: 'w1', format: 'csv' })
    const s = sockets[0]!
    expect(s.sent).toHaveLength(0)
    s.open()
    expect(s.sent[0]).toMatchObject({
      command: 'exportWatchlist',
      params: { id: 'w1', format: 'csv' },
    })
    s.deliver({ kind: 'response', id: s.sent[0]!.id, outcome: { ok: true, result: 'csv text' } })
    await expect(result).resolves.toBe('csv text')
  })

  it('rejects with the host error code, and rejects results outside the contract', async () => {
    const { sockets, api } = harness()
    sockets[0]!.open()
    const failing = api.invoke('addSymbols', { id: 'w1', inputs: ['fx:XXX'] })
    const bad = api.invoke('exportWatchlist', { id: 'w1', format: 'csv' })
    const [a, b] = sockets[0]!.sent
    sockets[0]!.deliver({
      kind: 'response',
      id: a!.id,
      outcome: { ok: false, error: { code: 'UNKNOWN_SYMBOL', message: 'no' } },
    })
    sockets[0]!.deliver({ kind: 'response', id: b!.id, outcome: { ok: true, result: [42] } })
    await expect(failing).rejects.toMatchObject({ code: 'UNKNOWN_SYMBOL' })
    await expect(bad).rejects.toMatchObject({ code: 'BAD_FRAME' })
  })

  it('passes valid events to subscribers and drops malformed ones', () => {
    const { sockets, api } = harness()
    const seen: BridgeEvent[] = []
    api.subscribe((e) => seen.push(e))
    sockets[0]!.open()
    sockets[0]!.deliver({ kind: 'event', event: { type: 'openSymbol', key: 'fx:EURUSD' } })
    sockets[0]!.deliver({ kind: 'event', event: { type: 'quotes', quotes: [{ last: 1 }] } })
    sockets[0]!.onmessage?.({ data: 'not json' })
    expect(seen).toEqual([{ type: 'openSymbol', key: 'fx:EURUSD' }])
  })

  it('fails in-flight commands on disconnect and reconnects with backoff, reporting the reconnect', async () => {
    const { sockets, timers, api } = harness()
    const states: Array<[string, boolean]> = []
    api.onConnection((s, re) => states.push([s, re]))
    sockets[0]!.open()
    const inflight = api.invoke('getSnapshot', {})
    sockets[0]!.close()
    await expect(inflight).rejects.toBeInstanceOf(BridgeError)
    const retry = timers.filter((t) => t.ms < 30_000).at(-1)!
    expect(retry.ms).toBe(125) // full jitter: 0.5 * 250 ms on the first attempt
    retry.fn()
    sockets[1]!.open()
    expect(states).toEqual([
      ['open', false],
      ['waiting', false],
      ['connecting', false],
      ['open', true],
    ])
    await flush()
  })

  it('fails what waits and what is in flight when closed, and takes nothing after', async () => {
    const { sockets, api } = harness()
    const queued = api.invoke('getSnapshot', {})
    api.close()
    await expect(queued).rejects.toMatchObject({ code: 'BRIDGE_DOWN' })
    await expect(api.invoke('getSnapshot', {})).rejects.toMatchObject({ code: 'BRIDGE_DOWN' })
    expect(sockets[0]!.readyState).toBe(3)
  })

  it('gives up a command at its deadline, and drops the answer that comes after', async () => {
    const { sockets, timers, api } = harness()
    sockets[0]!.open()
    const late = api.invoke('getSnapshot', {})
    const deadline = timers.find((t) => t.ms >= 30_000)!
    deadline.fn()
    await expect(late).rejects.toMatchObject({ code: 'TIMEOUT' })
    sockets[0]!.deliver({
      kind: 'response',
      id: sockets[0]!.sent[0]!.id,
      outcome: { ok: true, result: {} },
    })
    sockets[0]!.deliver({ kind: 'response', id: 999, outcome: { ok: true, result: {} } })
    sockets[0]!.deliver({ kind: 'other' })
  })

  it('stays closed after a drop when it is not to try again (a test client following one host)', () => {
    const made: LoopSocket[] = []
    const transport = socketTransport({
      url: 'ws://127.0.0.1:1/bridge',
      createSocket: () => {
        const s = new LoopSocket()
        made.push(s)
        return s
      },
      retry: false,
    })
    const states: string[] = []
    transport.onConnection((s) => states.push(s))
    made[0]!.open()
    made[0]!.close()
    expect(states).toEqual(['open', 'closed'])
    expect(transport.connection).toBe('closed')
    expect(made).toHaveLength(1)
  })
})
