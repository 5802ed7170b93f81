import WebSocket from 'ws'
import type { CommandOutcome, WebFrame } from '../../src/shared/bridge'

/**
 * The browser host's bridge as a page on its own origin uses it, from Node: the tokened address
 * Tickdesk printed, our Origin header, { id, command, params } requests matched to responses.
 */
export interface BridgeClient {
  invoke(command: string, params?: unknown): Promise<CommandOutcome<unknown>>
  close(): void
}

export async function connectBridge(appUrl: string): Promise<BridgeClient> {
  const url = new URL(appUrl)
  const socket = new WebSocket(`ws://${url.host}/bridge${url.search}`, {
    headers: { origin: `http://${url.host}` },
  })
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve())
    socket.once('error', reject)
  })
  let nextId = 1
  const waiting = new Map<number, (outcome: CommandOutcome<unknown>) => void>()
  socket.on('message', (data) => {
    const frame = JSON.parse(data.toString()) as WebFrame
    if (frame.kind === 'response') waiting.get(frame.id)?.(frame.outcome)
  })
  return {
    invoke: (command, params = {}) =>
      new Promise((resolve) => {
        const id = nextId++
        waiting.set(id, resolve)
        socket.send(JSON.stringify({ id, command, params }))
      }),
    close: () => socket.close(),
  }
}
