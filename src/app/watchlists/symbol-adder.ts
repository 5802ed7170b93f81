import { TickdeskError } from '../../core/errors'
import { redact } from '../../core/log'
import type { QuoteUpdate } from '../../core/quotes/quote-fields'
import type { ProbeVerdict } from '../../core/rest/symbol-probe'
import type { AddReport } from '../../shared/markets/instrument'
import { parseSymbolKey, type SymbolKey } from '../../shared/markets/market'
import type { InstrumentCatalogue } from '../catalogue/instrument-catalogue'
import { fullMessage, WatchlistBook, type WatchlistState } from './watchlist-book'

/**
 * Adding symbols to a watchlist, one or a pasted list, with a report of what happened to each
 * entry. An entry resolves through the catalogue (market:SYMBOL, or a bare code it lists); a key
 * the catalogue does not know is checked with one quote call through the engine's budget first
 * (core/rest/symbol-probe.ts), and a key the service answered for is confirmed and remembered.
 *   listed       -> added (and confirmed)
 *   unknown      -> not added: "Unknown symbol", the service does not list it
 *   not-in-plan  -> added with a note: it exists for the service, the key cannot see its market
 *   unchecked    -> added with a note: offline or throttled, the row will say if it is unknown
 * All additions land in one watchlist change (one save, one event), in the order given. The quote a
 * probe brought back is the added row's first price: the engine does not ask for it again.
 */
export interface AdderHost {
  readonly lists: WatchlistState
  setLists(next: WatchlistState): Promise<void>
  readonly catalogue: InstrumentCatalogue
  probe(key: SymbolKey): Promise<ProbeVerdict>
  /** Hands the engine a probed quote before the list change makes it watch the symbol. */
  adopt(update: QuoteUpdate): void
  saveConfirmed(keys: SymbolKey[]): Promise<void>
}

/** Quote calls in flight at once for one paste; the governor still paces them within the plan. */
const PROBE_CONCURRENCY = 4

interface Pending {
  order: number
  input: string
  key: SymbolKey
  note: string
  /** The quote the probe fetched, if it fetched one. */
  probed?: QuoteUpdate
}

export async function addSymbols(
  host: AdderHost,
  listId: string,
  inputs: readonly string[],
): Promise<AddReport> {
  const list = host.lists.watchlists.find((w) => w.id === listId)
  if (!list)
    throw new TickdeskError({ code: 'NOT_FOUND', message: `No watchlist with id ${listId}` })
  const report: AddReport = { added: [], present: [], rejected: [] }
  const seen = new Set<SymbolKey>()
  const listed = new Set(list.symbols)
  const ready: Pending[] = []
  const unknown: Pending[] = []
  inputs.forEach((raw, order) => {
    const input = redact(raw.trim()).slice(0, 64)
    const r = host.catalogue.resolve(raw)
    if (!r.ok) return report.rejected.push({ input, code: r.code, message: redact(r.message) })
    if (seen.has(r.key)) return
    seen.add(r.key)
    if (listed.has(r.key)) return report.present.push({ input, key: r.key })
    ;(r.known ? ready : unknown).push({ order, input, key: r.key, note: '' })
  })

  const verdicts = await mapLimit(unknown, PROBE_CONCURRENCY, (p) => host.probe(p.key))
  let confirmed = false
  unknown.forEach((p, i) => {
    const v = verdicts[i] as ProbeVerdict
    if (v.verdict === 'listed') {
      confirmed = host.catalogue.confirm(p.key) || confirmed
      ready.push(v.update === null ? p : { ...p, probed: v.update })
    } else if (v.verdict === 'unknown') {
      report.rejected.push({
        input: p.input,
        code: v.code,
        message: `Unknown symbol: the service does not list ${p.key} (${v.code})`,
      })
    } else {
      const market = parseSymbolKey(p.key)?.market ?? 'its market'
      const note =
        v.verdict === 'not-in-plan'
          ? `${market} is not in your plan or key (${v.code}): it shows "Not in plan"`
          : `not checked now (${v.code}); the row says "Unknown symbol" if the service does not list it`
      ready.push({ ...p, note })
    }
  })

  ready.sort((a, b) => a.order - b.order)
  const { state: next, full } = WatchlistBook.addSymbols(
    host.lists,
    listId,
    ready.map((p) => p.key),
  )
  const refused = new Set(full)
  for (const p of ready) {
    if (refused.has(p.key)) {
      report.rejected.push({ input: p.input, code: 'INVALID_INPUT', message: fullMessage })
      continue
    }
    report.added.push({ input: p.input, key: p.key, note: p.note })
    // Adopted before setLists below: the list change starts the engine watching, and a watched
    // symbol without a quote is sent for its first snapshot at once.
    if (p.probed) host.adopt(p.probed)
  }
  // Refusals read in the order they were pasted, whichever step refused them.
  const position = new Map(inputs.map((raw, i) => [redact(raw.trim()).slice(0, 64), i] as const))
  report.rejected.sort((a, b) => (position.get(a.input) ?? 0) - (position.get(b.input) ?? 0))
  if (report.added.length > 0) await host.setLists(next)
  if (confirmed) await host.saveConfirmed(host.catalogue.confirmed())
  return report
}

/** Runs `fn` over items with at most `limit` at once; results in item order. */
async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array(items.length)
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++
      out[i] = await fn(items[i] as T)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  return out
}

/**
 * Runs adds one after another, so a symbol typed while the previous add is still being checked
 * lands after it, and each add sees the list the previous one left.
 */
export class AddQueue {
  private tail: Promise<unknown> = Promise.resolve()

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task, task)
    this.tail = result.catch(() => undefined)
    return result
  }
}
