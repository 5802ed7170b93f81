import type { WebSocket } from 'ws'
import type { AppHostApi } from '../app/host-api'
import { WebRequestSchema, type BridgeEvent, type WebFrame } from '../shared/bridge'

/** Past this much unsent data the page is not keeping up: quote batches are coalesced instead. */
const BACKPRESSURE_BYTES = 1 << 20

/**
 * Carries the bridge contract over one page's WebSocket: requests in, responses and events out.
 * Every request is validated here (shape) and again by the app (command params).
 */
export function attachBridgeSocket(socket: WebSocket, app: AppHostApi): () => void {
  const send = (frame: WebFrame): void => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(frame))
  }

  let heldQuotes: Extract<BridgeEvent, { type: 'quotes' }>['quotes'] = []
  let flushTimer: ReturnType<typeof setTimeout> | null = null
  const flushHeld = (): void => {
    flushTimer = null
    if (socket.bufferedAmount > BACKPRESSURE_BYTES) {
      flushTimer = setTimeout(flushHeld, 16)
      return
    }
    const quotes = heldQuotes
    heldQuotes = []
    if (quotes.length > 0) send({ kind: 'event', event: { type: 'quotes', quotes } })
  }

  const unsubscribe = app.subscribe((event) => {
    if (
      event.type === 'quotes' &&
      (socket.bufferedAmount > BACKPRESSURE_BYTES || heldQuotes.length > 0)
    ) {
      heldQuotes = mergePatches(heldQuotes, event.quotes)
      flushTimer ??= setTimeout(flushHeld, 16)
      return
    }
    send({ kind: 'event', event })
  })

  socket.on('message', (data, isBinary) => {
    if (isBinary) return
    let parsed: unknown
    try {
      parsed = JSON.parse(data.toString())
    } catch {
      return
    }
    const request = WebRequestSchema.safeParse(parsed)
    if (!request.success) return
    const { id, command, params } = request.data
    void app.invoke(command, params).then((outcome) => send({ kind: 'response', id, outcome }))
  })

  const detach = (): void => {
    unsubscribe()
    if (flushTimer) clearTimeout(flushTimer)
  }
  socket.once('close', detach)
  return detach
}

function mergePatches<T extends { key: string }>(held: T[], incoming: T[]): T[] {
  const byKey = new Map(held.map((p) => [p.key, p]))
  for (const patch of incoming) byKey.set(patch.key, { ...byKey.get(patch.key), ...patch })
  return [...byKey.values()]
}
