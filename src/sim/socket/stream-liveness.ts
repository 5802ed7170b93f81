import type { Clock } from '../../util/clock'
import type { ServiceBehaviour } from '../behaviour'
import { controlFrame, type Dialect } from '../dialects'
import type { Peer } from './stream-peer'

/**
 * The service's side of liveness, at every heartbeat: a peer that answered nothing since the
 * last one is terminated; the others are pinged, at the WebSocket level or with an app-level
 * {"event":"ping"} (the dialect's heartbeat). Where the service demands more of the client
 * (ServiceBehaviour.keepAlive), a socket that sent nothing of its own for KEEPALIVE_SILENCE_MS
 * ('client-ping'), or left an app ping without {"action":"pong"} ('action-pong'), is closed
 * with the reason, as such services do.
 */
export const KEEPALIVE_SILENCE_MS = 20_000

export interface LivenessContext {
  clock: Clock
  dialect: Dialect
  behaviour: ServiceBehaviour
  send(peer: Peer, frame: string): void
}

export function heartbeat(peers: Iterable<Peer>, c: LivenessContext): void {
  const now = c.clock.now()
  const demand = c.behaviour.keepAlive
  for (const peer of peers) {
    // A pong owed is the service's own demand and closes with its reason, whether or not the
    // client said anything else since (a busy client may miss one short beat).
    if (demand === 'action-pong' && peer.pongOwed) {
      peer.ws.close(4001, 'pong timeout: expected {"action":"pong"}')
      continue
    }
    if (!peer.alive) {
      peer.ws.terminate()
      continue
    }
    if (demand === 'client-ping' && now - peer.lastClientMessageAt > KEEPALIVE_SILENCE_MS) {
      peer.ws.close(4000, `no ping from the client within ${KEEPALIVE_SILENCE_MS / 1000} s`)
      continue
    }
    peer.alive = false
    if (demand === 'action-pong') {
      peer.pongOwed = true
      c.send(peer, controlFrame('ping', { ts: now }))
    } else if (c.dialect.heartbeat === 'ws-ping') peer.ws.ping()
    else c.send(peer, controlFrame('ping', { ts: now }))
  }
}
