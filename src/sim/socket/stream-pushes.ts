import type { Clock } from '../../util/clock'
import type { ServiceBehaviour } from '../behaviour'
import { candleFrames, tickFrames, type Dialect } from '../dialects'
import type { FaultState } from '../faults'
import type { Instrument } from '../market/instruments'
import { nameOf } from '../market-names'
import type { TickSource } from '../market/tick-source'
import { servedFigures, type TickPush } from '../push-layouts'
import { quoteShape, shapeTick } from '../quote-shapes'
import type { ServedPrices } from '../served-prices'
import type { Peer } from './stream-peer'

/** A frame no client can read (a tick whose symbol is a number): the unreadable trickle. */
export const UNREADABLE = '{"type":"tick","symbol":42,"last":"abc","ts":"yesterday"}'

export interface PushContext {
  clock: Clock
  dialect: Dialect
  behaviour: ServiceBehaviour
  faults: FaultState
  source: TickSource
  served: ServedPrices
  send(peer: Peer, frame: string): void
}

/**
 * What the stream pushes, and the record of it (served-prices.ts): every beat, one tick per
 * subscribed symbol whose market trades (each symbol's walk stepped once, whoever holds it), as
 * its quote's shape shows it (quote-shapes.ts), written in the dialect; candles; the first
 * snapshot after a subscribe.
 */
export class Pushes {
  constructor(private readonly c: PushContext) {}

  private readonly word = (m: Instrument['market']): string => nameOf(this.c.behaviour, m)

  tick(peers: Iterable<Peer>): void {
    const now = this.c.clock.now()
    // null: the symbol's market is shut or it has no quote, and pushes nothing this beat.
    const pushes = new Map<string, TickPush | null>()
    for (const peer of peers) {
      for (const [key, inst] of peer.subs) {
        if (pushes.has(key) || this.c.faults.muted.has(key)) continue
        const t = this.c.source.tick(inst, now)
        pushes.set(key, t === null ? null : this.shaped(inst, t, now))
      }
    }
    for (const peer of peers) {
      const mine: TickPush[] = []
      for (const k of peer.subs.keys()) {
        const push = pushes.get(k)
        if (push) mine.push(push)
      }
      if (mine.length === 0) continue
      for (const frame of tickFrames(this.c.dialect, mine, this.word)) this.c.send(peer, frame)
    }
  }

  /** The first full pushes of symbols just subscribed. */
  snapshot(peer: Peer, added: Instrument[]): void {
    const now = this.c.clock.now()
    const first: TickPush[] = []
    for (const inst of added) {
      const t = this.shaped(inst, this.c.source.snapshot(inst, now), now)
      if (t !== null) first.push(t)
    }
    for (const frame of tickFrames(this.c.dialect, first, this.word)) this.c.send(peer, frame)
  }

  candles(peers: Iterable<Peer>): void {
    const now = this.c.clock.now()
    for (const peer of peers) {
      const candles = this.c.source.candles(peer.subs.values(), now)
      for (const frame of candleFrames(this.c.dialect, candles, this.word)) this.c.send(peer, frame)
    }
  }

  /** The push as its quote's shape shows it, recorded as served; null: nothing is pushed. */
  private shaped(inst: Instrument, t: TickPush, now: number): TickPush | null {
    const push = shapeTick(t, quoteShape(inst, this.c.behaviour, this.c.faults))
    if (push === null) return null
    const figures = servedFigures(this.c.dialect.layout ?? 'sim', push)
    this.c.served.record(`${inst.market}:${inst.symbol}`, { at: now, via: 'stream', ...figures })
    return push
  }
}
