/**
 * Server-side counters, so tests can prove from the outside that a client stays within its plan
 * (spec: Limits). Every attempt counts, admitted or not; pushes are never requests.
 */

export interface KeyStats {
  requests: number
  http429: number
  wsOpen: number
  maxWsOpen: number
  /** The most symbols the key's sockets held at once (subscribed, or acked under an unknown name). */
  maxSubscribed: number
}

export interface SimStats {
  requests: number
  restRequests: number
  wsHandshakes: number
  byKey: Record<string, KeyStats>
  http429: number
  http401: number
  http403: number
  wsOpen: number
  maxWsOpen: number
  subscribedSymbols: number
  /** Symbols a subscribe asked for past the key's symbol cap (refused with an error frame). */
  overCapRefusals: number
  /** Refusals for being over a limit, whatever their status: 429, or a 401 with a 429's code. */
  overLimit: number
  malformedClientFrames: number
  /** REST requests per path, every attempt. */
  byPath: Record<string, number>
  /** How many REST requests named each symbol (its `symbols` or `symbol` parameter). */
  symbolAsks: Record<string, number>
}

export class StatsCounter {
  private s: SimStats = StatsCounter.empty()

  private static empty(): SimStats {
    return {
      requests: 0,
      restRequests: 0,
      wsHandshakes: 0,
      byKey: {},
      http429: 0,
      http401: 0,
      http403: 0,
      wsOpen: 0,
      maxWsOpen: 0,
      subscribedSymbols: 0,
      overCapRefusals: 0,
      overLimit: 0,
      malformedClientFrames: 0,
      byPath: {},
      symbolAsks: {},
    }
  }

  private key(key: string): KeyStats {
    let k = this.s.byKey[key]
    if (!k)
      this.s.byKey[key] = k = { requests: 0, http429: 0, wsOpen: 0, maxWsOpen: 0, maxSubscribed: 0 }
    return k
  }

  request(kind: 'rest' | 'ws', key: string | null): void {
    this.s.requests++
    if (kind === 'rest') this.s.restRequests++
    else this.s.wsHandshakes++
    if (key !== null) this.key(key).requests++
  }

  /** One REST request's path and the symbols it names. */
  asked(path: string, query: URLSearchParams): void {
    this.s.byPath[path] = (this.s.byPath[path] ?? 0) + 1
    const raw = query.get('symbols') ?? query.get('symbol') ?? ''
    const symbols = new Set(raw.split(',').map((x) => x.trim().toUpperCase()))
    for (const sym of symbols)
      if (sym !== '') this.s.symbolAsks[sym] = (this.s.symbolAsks[sym] ?? 0) + 1
  }

  status(status: number, key: string | null, overLimit = false): void {
    if (overLimit) this.s.overLimit++
    if (status === 401) this.s.http401++
    if (status === 403) this.s.http403++
    if (status === 429) {
      this.s.http429++
      if (key !== null) this.key(key).http429++
    }
  }

  socketOpened(key: string): void {
    this.s.wsOpen++
    this.s.maxWsOpen = Math.max(this.s.maxWsOpen, this.s.wsOpen)
    const k = this.key(key)
    k.wsOpen++
    k.maxWsOpen = Math.max(k.maxWsOpen, k.wsOpen)
  }

  socketClosed(key: string): void {
    this.s.wsOpen = Math.max(0, this.s.wsOpen - 1)
    const k = this.key(key)
    k.wsOpen = Math.max(0, k.wsOpen - 1)
  }

  /** Subscriptions changed by `delta`; `held`: what the key's sockets hold now, against its cap. */
  subscribed(delta: number, key?: string, held?: number): void {
    this.s.subscribedSymbols = Math.max(0, this.s.subscribedSymbols + delta)
    if (key !== undefined && held !== undefined) {
      const k = this.key(key)
      k.maxSubscribed = Math.max(k.maxSubscribed, held)
    }
  }

  overCap(symbols: number): void {
    this.s.overCapRefusals += symbols
  }

  malformedClientFrame(): void {
    this.s.malformedClientFrames++
  }

  snapshot(): SimStats {
    return structuredClone(this.s)
  }

  /** Zeroes the counters but keeps the live gauges (open sockets, subscriptions) truthful. */
  reset(): void {
    const live = this.s
    this.s = StatsCounter.empty()
    this.s.wsOpen = live.wsOpen
    this.s.maxWsOpen = live.wsOpen
    this.s.subscribedSymbols = live.subscribedSymbols
    for (const [key, k] of Object.entries(live.byKey)) {
      if (k.wsOpen > 0)
        this.s.byKey[key] = {
          requests: 0,
          http429: 0,
          wsOpen: k.wsOpen,
          maxWsOpen: k.wsOpen,
          maxSubscribed: 0,
        }
    }
  }
}
