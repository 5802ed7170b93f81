import { MARKETS, type Market, type SymbolKey } from '../../shared/markets/market'
import { MAX_SYMBOLS_PER_CALL, quoteRoute, type EndpointFamily } from '../rest/market-routes'

/**
 * Why a symbol is streamed or polled (the budget line says it in words):
 *   priority      streamed: every streamable symbol of its priority class fits in the slots;
 *   saves-call    streamed: with the rest of its batch streamed too, a polled call leaves every
 *                 poll round (a family's last symbols alone in their batch);
 *   spare-slot    streamed: slots no call could use; who gets them does not change the calls;
 *   outranked     polled: the slots went to higher classes or to batches they empty;
 *   not-streamable, demoted, stream-down: polled because the stream cannot carry it now;
 *   stream-market  polled: the stream cannot be used for its market now: no name tried so far
 *                 answers (stream-market-names.ts), or its prices are not trusted (core/trust);
 *   checking      polled, and subscribed as its market's one shadow: its pushes are checked
 *                 against its polls (a market name or a field reading on trial);
 *   same-symbol   polled: its symbol streams in another market and the stream's pushes do not
 *                 say which market they are for.
 */
export type StreamReason =
  | 'priority'
  | 'saves-call'
  | 'spare-slot'
  | 'outranked'
  | 'not-streamable'
  | 'demoted'
  | 'stream-down'
  | 'stream-market'
  | 'checking'
  | 'same-symbol'

export interface ChoiceCandidate {
  key: SymbolKey
  market: Market
  symbol: string
  priority: number
  /** Why it may not take a slot now; null when it may. */
  barred: 'not-streamable' | 'demoted' | 'stream-market' | null
  /**
   * Its symbol may stream in one market only: the stream's pushes for it name no market, so with
   * two markets subscribed a push could land in either row ('same-symbol' when the other has it).
   */
  exclusive?: boolean
  /** Of an exclusive symbol's instances, one that gives way to another (the planner's choice). */
  yields?: boolean
}

export interface StreamChoice {
  streamed: Set<SymbolKey>
  reasons: Map<SymbolKey, StreamReason>
}

/**
 * Who takes the stream slots. Priority classes are served in order and never crossed (a visible
 * row keeps its slot over any alerted one). In the class where the slots run out, the slots go
 * where they take the most polled REST calls out of a round: a poll round costs one call per
 * endpoint family and 50 symbols (spec: Limits, 1 to 50 symbols), so emptying a family's last,
 * partly filled batch saves a call and streaming symbols of a batch that stays is worth nothing.
 * The choice does not depend on watch order: ties go first to the symbols already streamed (no
 * churn unless a call is really saved: hysteresis), then to symbols whose name is not streamed in
 * another market (a push that names no market we know is matched by symbol), then by market and
 * symbol.
 */
export function chooseStreams(
  candidates: readonly ChoiceCandidate[],
  opts: { cap: number; available: boolean; incumbents: ReadonlySet<SymbolKey> },
): StreamChoice {
  const streamed = new Set<SymbolKey>()
  const reasons = new Map<SymbolKey, StreamReason>()
  const names = new Map<string, Set<Market>>()
  const take = (c: ChoiceCandidate, reason: StreamReason): void => {
    streamed.add(c.key)
    reasons.set(c.key, reason)
    const markets = names.get(c.symbol)
    if (markets === undefined) names.set(c.symbol, new Set([c.market]))
    else markets.add(c.market)
  }
  const clashes = (c: ChoiceCandidate): boolean => {
    const markets = names.get(c.symbol)
    if (markets === undefined) return false
    for (const m of markets) if (m !== c.market) return true
    return false
  }
  const allowed = (c: ChoiceCandidate): boolean =>
    c.exclusive !== true || (c.yields !== true && !clashes(c))
  let free = opts.available ? Math.max(0, Math.floor(opts.cap)) : 0
  for (const members of byPriority(candidates)) {
    const open: ChoiceCandidate[] = []
    for (const c of members) {
      if (!opts.available) reasons.set(c.key, 'stream-down')
      else if (c.barred !== null) reasons.set(c.key, c.barred)
      else open.push(c)
    }
    if (open.length <= free) {
      for (const c of open)
        if (allowed(c)) {
          take(c, 'priority')
          free--
        } else reasons.set(c.key, 'same-symbol')
      continue
    }
    if (free > 0) {
      const polled = candidates.filter((c) => !streamed.has(c.key))
      const byFamily = groupByFamily(open)
      const quota = allocate(byFamily, familyCounts(polled), free, opts.incumbents)
      const count = (family: EndpointFamily): number => byFamily.get(family)?.length ?? 0
      // Families streamed whole go first: the others then avoid their symbols' names.
      const order = [...quota].sort((a, b) => count(a[0]) - a[1] - (count(b[0]) - b[1]))
      for (const [family, k] of order) {
        const members = (byFamily.get(family) ?? []).filter(allowed)
        for (const c of firstRanked(members, k, opts.incumbents, clashes)) take(c, 'saves-call')
      }
      const spare = free - streamedCount(open, streamed)
      if (spare > 0) {
        const rest = open.filter((c) => !streamed.has(c.key) && allowed(c))
        for (const c of firstRanked(rest, spare, opts.incumbents, clashes)) take(c, 'spare-slot')
      }
      free = 0
    }
    for (const c of open)
      if (!streamed.has(c.key)) reasons.set(c.key, allowed(c) ? 'outranked' : 'same-symbol')
  }
  return { streamed, reasons }
}

function streamedCount(list: readonly ChoiceCandidate[], streamed: ReadonlySet<SymbolKey>): number {
  let n = 0
  for (const c of list) if (streamed.has(c.key)) n++
  return n
}

/** REST calls one poll round of these symbols costs (one per family and 50 symbols). */
export function roundCalls(keys: Iterable<{ market: Market }>): number {
  let calls = 0
  for (const n of familyCounts(keys).values()) calls += Math.ceil(n / MAX_SYMBOLS_PER_CALL)
  return calls
}

function byPriority(candidates: readonly ChoiceCandidate[]): ChoiceCandidate[][] {
  const groups = new Map<number, ChoiceCandidate[]>()
  for (const c of candidates) {
    const group = groups.get(c.priority)
    if (group === undefined) groups.set(c.priority, [c])
    else group.push(c)
  }
  return [...groups.entries()].sort((a, b) => b[0] - a[0]).map(([, g]) => g)
}

function familyOf(c: { market: Market }): EndpointFamily {
  return quoteRoute(c.market).family
}

function familyCounts(list: Iterable<{ market: Market }>): Map<EndpointFamily, number> {
  const out = new Map<EndpointFamily, number>()
  for (const c of list) {
    const family = familyOf(c)
    out.set(family, (out.get(family) ?? 0) + 1)
  }
  return out
}

/** The candidates of each endpoint family, in their order. */
function groupByFamily(list: readonly ChoiceCandidate[]): Map<EndpointFamily, ChoiceCandidate[]> {
  const out = new Map<EndpointFamily, ChoiceCandidate[]>()
  for (const c of list) {
    const family = familyOf(c)
    const group = out.get(family)
    if (group === undefined) out.set(family, [c])
    else group.push(c)
  }
  return out
}

/**
 * How many of each family's open symbols to stream so the fewest calls stay, then the most
 * incumbents keep their slots. Only the counts that empty a batch can save a call (a family of
 * n polled symbols drops one at n mod 50, then every 50 more), so few combinations exist: at most
 * 3 families and cap / 50 + 2 counts each. Spare slots are filled by the caller.
 */
function allocate(
  open: ReadonlyMap<EndpointFamily, readonly ChoiceCandidate[]>,
  n: ReadonlyMap<EndpointFamily, number>,
  slots: number,
  incumbents: ReadonlySet<SymbolKey>,
): Map<EndpointFamily, number> {
  const families = [...open.entries()]
    .sort((a, b) => (a[0] < b[0] ? -1 : 1))
    .map(([family, members]) => {
      const c = members.length
      const total = n.get(family) ?? 0
      let held = 0
      for (const o of members) if (incumbents.has(o.key)) held++
      const counts = [0]
      for (
        let k = ((total - 1) % MAX_SYMBOLS_PER_CALL) + 1;
        k <= Math.min(c, slots);
        k += MAX_SYMBOLS_PER_CALL
      )
        counts.push(k)
      return { family, total, held, counts }
    })
  let best: { calls: number; kept: number; pick: number[] } | null = null
  const walk = (i: number, pick: number[], used: number): void => {
    if (used > slots) return
    if (i === families.length) {
      let calls = 0
      let kept = 0
      let waiting = 0
      families.forEach((f, j) => {
        const k = pick[j] ?? 0
        calls += Math.ceil((f.total - k) / MAX_SYMBOLS_PER_CALL)
        kept += Math.min(k, f.held)
        waiting += f.held - Math.min(k, f.held)
      })
      kept += Math.min(slots - used, waiting)
      if (best === null || calls < best.calls || (calls === best.calls && kept > best.kept))
        best = { calls, kept, pick: [...pick] }
      return
    }
    for (const k of families[i]?.counts ?? [0]) walk(i + 1, [...pick, k], used + k)
  }
  walk(0, [], 0)
  const out = new Map<EndpointFamily, number>()
  const chosen = (best as { pick: number[] } | null)?.pick ?? []
  families.forEach((f, j) => {
    const k = chosen[j] ?? 0
    if (k > 0) out.set(f.family, k)
  })
  return out
}

/** Symbols in natural order (S2 before S10), the same on every machine. */
const NAME_ORDER = new Intl.Collator('en', { numeric: true })

/**
 * The first `k` of `list` in preference order: incumbents first, then symbols not streamed under
 * another market, then market and symbol. Each candidate's standing is read once, not in every
 * comparison: this ranks the thousands of symbols of a big watch on every replan.
 */
function firstRanked(
  list: readonly ChoiceCandidate[],
  k: number,
  incumbents: ReadonlySet<SymbolKey>,
  clashes: (c: ChoiceCandidate) => boolean,
): ChoiceCandidate[] {
  if (k <= 0) return []
  const ranked = list.map((c) => ({
    c,
    // Held and not clashing first; then the market's place.
    rank: (incumbents.has(c.key) ? 0 : 2) + (clashes(c) ? 1 : 0) + MARKETS.indexOf(c.market) / 100,
  }))
  ranked.sort((a, b) => a.rank - b.rank || NAME_ORDER.compare(a.c.symbol, b.c.symbol))
  return ranked.slice(0, k).map((r) => r.c)
}
