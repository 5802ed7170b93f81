import type { ServiceBehaviour } from '../behaviour'
import { controlFrame } from '../dialects'
import { scopeDenial } from '../gate'
import { findInstrument, type Instrument, type SimMarket } from '../market/instruments'
import { nameOf } from '../market-names'
import type { Scope } from '../plans-and-keys'
import { SIM_PLANS, type SimPlan } from '../plans'
import type { StatsCounter } from '../stats'
import { heldByKey, type Peer } from './stream-peer'

/**
 * What a subscribe, an unsubscribe, or a subscribe under an unknown market name does to a
 * socket (spec: WebSocket stream; unsubscribe is "not shown" and ours), under the key's symbol
 * cap (spec: Limits, "WebSocket caps (approximate)"), which counts every symbol held over all of
 * the key's sockets, those acked under an unknown name included.
 */
export interface SubscribeContext {
  behaviour: ServiceBehaviour
  wsSymbolsOverride?: Partial<Record<SimPlan, number>> | undefined
  stats: StatsCounter
  peers(): Iterable<Peer>
  send(peer: Peer, frame: string): void
  /** The first pushes of the symbols just added (a full snapshot each). */
  snapshot(peer: Peer, added: Instrument[]): void
}

function scopeOf(market: SimMarket): Scope {
  if (market === 'crypto' || market === 'usdt-futures') return 'crypto'
  if (market === 'futures' || market === 'agri') return market
  return 'multi'
}

export class Subscriptions {
  constructor(private readonly c: SubscribeContext) {}

  subscribe(peer: Peer, market: SimMarket, wanted: string[]): void {
    const named = nameOf(this.c.behaviour, market)
    const denied = scopeDenial(peer.key, scopeOf(market))
    if (denied) {
      return this.error(peer, {
        code: denied.code,
        message: denied.message,
        market: named,
        symbols: wanted,
      })
    }
    const unknown = wanted.filter((s) => !findInstrument(market, s))
    if (unknown.length > 0) {
      this.error(peer, {
        code: 'UNKNOWN_SYMBOL',
        message: 'unknown symbol',
        market: named,
        symbols: unknown,
      })
    }
    const known = wanted.filter((s) => !unknown.includes(s))
    const fresh = known.filter((s) => !peer.subs.has(`${market}:${s}`))
    const accepted = this.underCap(peer, named, fresh)
    const added: Instrument[] = []
    for (const s of accepted) {
      const inst = findInstrument(market, s) as Instrument
      peer.subs.set(`${market}:${s}`, inst)
      added.push(inst)
    }
    this.c.stats.subscribed(added.length, peer.key.key, heldByKey(this.c.peers(), peer.key.key))
    const acked = known.filter((s) => peer.subs.has(`${market}:${s}`))
    if (acked.length > 0)
      this.c.send(peer, controlFrame('subscribed', { market: named, symbols: acked }))
    // A full snapshot right after subscribing, so a client never waits a tick for its first price.
    this.c.snapshot(peer, added)
  }

  /**
   * A subscribe naming a market this service does not know (ServiceBehaviour.unknownMarket):
   * refused with an error frame, or acked and held against the cap without a push, ever.
   */
  unknownMarket(peer: Peer, market: unknown, symbols: string[]): void {
    const name = typeof market === 'string' ? market : JSON.stringify(market)
    if (this.c.behaviour.unknownMarket === 'silent') {
      const held = peer.ghosts.get(name) ?? new Set<string>()
      const fresh = symbols.filter((s) => !held.has(s))
      for (const s of this.underCap(peer, name, fresh)) held.add(s)
      peer.ghosts.set(name, held)
      this.c.stats.subscribed(0, peer.key.key, heldByKey(this.c.peers(), peer.key.key))
      return this.c.send(peer, controlFrame('subscribed', { market, symbols }))
    }
    this.error(peer, { code: 'INVALID_REQUEST', msg: `unknown market ${String(name)}` })
  }

  unsubscribe(peer: Peer, market: SimMarket | null, name: unknown, symbols: string[]): void {
    const word = typeof name === 'string' ? name : ''
    const ghosts = peer.ghosts.get(word)
    if (market === null && ghosts === undefined) return this.unknownMarket(peer, name, symbols)
    if (ghosts !== undefined) for (const s of symbols) ghosts.delete(s)
    const named = market === null ? word : nameOf(this.c.behaviour, market)
    // Acknowledged either way; a service that ignores it keeps the subscriptions (and pushes).
    if (market !== null && !this.c.behaviour.ignoresUnsubscribe) {
      let removed = 0
      for (const s of symbols) if (peer.subs.delete(`${market}:${s}`)) removed++
      this.c.stats.subscribed(-removed, peer.key.key, heldByKey(this.c.peers(), peer.key.key))
    }
    this.c.send(peer, controlFrame('unsubscribed', { market: named, symbols }))
  }

  /**
   * The symbols of `fresh` the key's cap leaves room for; the rest are refused with an error
   * frame. The spec lists only WS_CONN_LIMIT for stream caps. 'listed': the message says it is
   * the symbol cap and names the refused symbols; 'unlisted': the code and a bare message only.
   */
  private underCap(peer: Peer, named: string, fresh: string[]): string[] {
    const cap = this.c.wsSymbolsOverride?.[peer.key.plan] ?? SIM_PLANS[peer.key.plan].wsSymbols
    const room = Math.max(0, cap - heldByKey(this.c.peers(), peer.key.key))
    const overflow = fresh.slice(room)
    if (overflow.length > 0) {
      this.c.stats.overCap(overflow.length)
      this.error(
        peer,
        this.c.behaviour.symbolCapError === 'listed'
          ? {
              code: 'WS_CONN_LIMIT',
              message: `symbol cap of ${cap} per key reached`,
              market: named,
              symbols: overflow,
            }
          : { code: 'WS_CONN_LIMIT', message: 'limit reached' },
      )
    }
    return fresh.slice(0, room)
  }

  private error(peer: Peer, fields: Record<string, unknown>): void {
    this.c.send(peer, controlFrame('error', fields))
  }
}
