import type { WebSocket } from 'ws'
import type { AppHostApi } from '../app/host-api'
import { WebRequestSchema, type WebFrame } from '../shared/bridge'
import { LatestQuotes } from '../shared/latest-quotes'
import type { QuoteFrame } from '../shared/quote-frame'

/** Past this much unsent data the page is not keeping up: quote frames are merged instead. */
const BACKPRESSURE_BYTES = 1 << 20
const DRAIN_CHECK_MS = 16

/**
 * Carries the bridge contract over one page's WebSocket: requests in, responses and events out.
 * Every request is validated here (shape) and again by the app (command params). Quote frames go
 * out as the app emits them (it flushes when its event loop is free); only while the page falls
 * behind (unsent data piling up) are they held and merged per symbol, latest field wins
 * (shared/latest-quotes.ts), and sent as one frame once the socket drains.
 */
export function attachBridgeSocket(socket: WebSocket, app: AppHostApi): () => void {
  const send = (frame: WebFrame): void => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(frame))
  }

  const held = new LatestQuotes()
  let drainTimer: ReturnType<typeof setTimeout> | null = null
  const hold = (frame: QuoteFrame): void => {
    held.push(frame)
    drainTimer ??= setTimeout(sendHeld, DRAIN_CHECK_MS)
  }
  const sendHeld = (): void => {
    drainTimer = null
    if (socket.bufferedAmount > BACKPRESSURE_BYTES) {
      drainTimer = setTimeout(sendHeld, DRAIN_CHECK_MS)
      return
    }
    const frame = held.takeFrame()
    if (frame.keys.length > 0) send({ kind: 'event', event: { type: 'quotes', frame } })
  }

  const unsubscribe = app.subscribe((event) => {
    if (event.type === 'quotes' && (socket.bufferedAmount > BACKPRESSURE_BYTES || held.size > 0))
      return hold(event.frame)
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
    if (drainTimer) clearTimeout(drainTimer)
  }
  socket.once('close', detach)
  return detach
}
