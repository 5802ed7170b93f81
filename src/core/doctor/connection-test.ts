import type { StreamState } from '../../shared/status'
import type { Clock } from '../clock'
import type { Check } from './doctor-stream'
import type { TickdeskError } from '../errors'
import type { StreamClient } from '../stream/stream-client'

export interface LiveStream {
  state(): StreamState
  /** The last error the socket met since it was last open; null while fine. */
  lastError(): TickdeskError | null
  retryAt(): number | null
  symbols(): number
  onState(listener: (s: StreamState) => void): () => void
}

/** The engine's socket as the test sees it. */
export function liveStream(
  stream: StreamClient,
  lastError: () => TickdeskError | null,
  symbols: () => number,
): LiveStream {
  return {
    state: () => stream.state(),
    lastError,
    retryAt: () => stream.nextRetryAt(),
    symbols,
    onState: (listener) => stream.on('state', listener),
  }
}

/** A socket still connecting gets this long to open or fail before the test reports it. */
export const SETTLE_MS = 5_000

/**
 * The stream line of the in-app connection test: the engine's own socket as it stands, never a
 * handshake of its own (architecture: Layers, one WebSocket per app; the Free plan allows one, spec:
 * Limits). Open is OK; a socket waiting after WS_CONN_LIMIT, a 403 or a 429 says so and when it
 * tries again, whatever its upgrade said before.
 */
export async function liveStreamCheck(stream: LiveStream, clock: Clock): Promise<Check> {
  if (stream.state() === 'connecting' && stream.lastError() === null) await settle(stream, clock)
  const state = stream.state()
  if (state === 'open') {
    return {
      name: 'stream',
      ok: true,
      code: null,
      message: `stream open: ${stream.symbols()} symbols streaming on the app's one connection`,
      latencyMs: null,
    }
  }
  const error = stream.lastError()
  const retryAt = stream.retryAt()
  const when = retryAt === null ? '' : `; next try ${new Date(retryAt).toISOString()}`
  return {
    name: 'stream',
    ok: false,
    code: error ? String(error.code) : null,
    message: error ? `stream ${state}: ${error.message}${when}` : `stream ${state}${when}`,
    latencyMs: null,
  }
}

function settle(stream: LiveStream, clock: Clock): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      off()
      clock.clearTimeout(timer)
      resolve()
    }
    const off = stream.onState((s) => {
      if (s !== 'connecting') done()
    })
    const timer = clock.setTimeout(done, SETTLE_MS)
  })
}
