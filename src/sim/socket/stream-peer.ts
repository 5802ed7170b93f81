import type { WebSocket } from 'ws'
import type { Instrument } from '../market/instruments'
import type { KeyRecord } from '../plans-and-keys'

/** One open socket as the stream hub keeps it (stream.ts). */
export interface Peer {
  ws: WebSocket
  key: KeyRecord
  /** `market:SYMBOL` -> instrument, for what the socket subscribed under a name the service knows. */
  subs: Map<string, Instrument>
  /**
   * Subscriptions acked under a market name the service does not know (unknownMarket 'silent'):
   * nothing is ever pushed for them, but they count against the key's symbol cap until they are
   * unsubscribed under the same name, as a real service's would.
   */
  ghosts: Map<string, Set<string>>
  alive: boolean
  garbage: number
  /** forgetAll(): the service no longer knows this socket; it stays open and says nothing. */
  forgotten: boolean
  /** When the client last sent a message of its own (not a WebSocket ping): keep-alive demands. */
  lastClientMessageAt: number
  /** An app-level ping went out and its {"action":"pong"} has not come (keepAlive 'action-pong'). */
  pongOwed: boolean
  openedAt: number
}

/** Symbols the key's sockets hold against its cap: subscriptions and ghosts, over all of them. */
export function heldByKey(peers: Iterable<Peer>, key: string): number {
  let n = 0
  for (const p of peers) {
    if (p.key.key !== key) continue
    n += p.subs.size
    for (const g of p.ghosts.values()) n += g.size
  }
  return n
}

export function ghostCount(p: Peer): number {
  let n = 0
  for (const g of p.ghosts.values()) n += g.size
  return n
}
