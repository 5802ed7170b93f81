import { EventEmitter } from 'node:events'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { WebSocket } from 'ws'
import type { AppHostApi } from '../app/host-api'
import type { BridgeEvent } from '../shared/bridge'
import { decodeQuoteFrame, encodeQuoteFrame } from '../shared/quote-frame'
import type { QuotePatch } from '../shared/quote'
import { attachBridgeSocket } from './bridge-socket'

/**
 * The page's socket as the bridge sees it: what was sent, and how much of it the page has not
 * read yet (bufferedAmount), which a test sets to play a page that fell behind.
 */
class PageSocket extends EventEmitter {
  readonly OPEN = 1
  readyState = 1
  bufferedAmount = 0
  readonly sent: unknown[] = []
  send(text: string): void {
    this.sent.push(JSON.parse(text))
  }
}

/** The app's event stream, driven by the test. */
function appEmitting(): { app: AppHostApi; emit: (event: BridgeEvent) => void } {
  const listeners = new Set<(event: BridgeEvent) => void>()
  const app = {
    subscribe: (l: (event: BridgeEvent) => void) => {
      listeners.add(l)
      return () => listeners.delete(l)
    },
  } as unknown as AppHostApi
  return { app, emit: (event) => listeners.forEach((l) => l(event)) }
}

const quotes = (patches: QuotePatch[]): BridgeEvent => ({
  type: 'quotes',
  frame: encodeQuoteFrame(patches),
})
const sentQuotes = (socket: PageSocket): QuotePatch[][] =>
  socket.sent.flatMap((m) => {
    const event = (m as { event?: BridgeEvent }).event
    return event?.type === 'quotes' ? [decodeQuoteFrame(event.frame)] : []
  })

describe('the browser bridge socket', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('sends quote frames as they come while the page keeps up', () => {
    const socket = new PageSocket()
    const { app, emit } = appEmitting()
    attachBridgeSocket(socket as unknown as WebSocket, app)
    emit(quotes([{ key: 'a', last: 1 }]))
    emit(quotes([{ key: 'a', last: 2 }]))
    expect(sentQuotes(socket)).toEqual([[{ key: 'a', last: 1 }], [{ key: 'a', last: 2 }]])
  })

  it('holds frames while the page is behind and sends one merged frame once it drains', () => {
    const socket = new PageSocket()
    const { app, emit } = appEmitting()
    attachBridgeSocket(socket as unknown as WebSocket, app)
    socket.bufferedAmount = 2 << 20
    emit(
      quotes([
        { key: 'a', last: 1, bid: 0.5 },
        { key: 'b', last: 10 },
      ]),
    )
    emit(quotes([{ key: 'a', last: 2 }]))
    vi.advanceTimersByTime(100)
    expect(sentQuotes(socket)).toEqual([])
    // Caught up: the next frame waits behind the held ones, which go out merged, latest wins.
    socket.bufferedAmount = 0
    emit(quotes([{ key: 'b', last: 11, ask: 12 }]))
    vi.advanceTimersByTime(20)
    expect(sentQuotes(socket)).toEqual([
      [
        { key: 'a', last: 2, bid: 0.5 },
        { key: 'b', last: 11, ask: 12 },
      ],
    ])
    emit(quotes([{ key: 'a', last: 3 }]))
    expect(sentQuotes(socket).at(-1)).toEqual([{ key: 'a', last: 3 }])
  })
})
