import type { Market, SymbolKey } from '../../shared/markets/market'
import type { SymbolStatus, SymbolStatusCode } from '../../shared/quote'
import type { Clock } from '../clock'
import { refusesWhatWasAsked, SYMBOL_400, type TickdeskError } from '../errors'
import type { EndpointFamily } from '../rest/market-routes'
import type { QuoteUpdate } from '../quotes/quote-fields'
import { splitByMarket, splitRefused, type Batch, type BatchMember } from './poll-batch'
import type { PollQueue, Tracked } from './poll-queue'
import type { Answer } from './poll-request'
import type { PollVerdicts } from './poll-verdicts'

const REFUSED_400 = new Set([...SYMBOL_400, 'INVALID_REQUEST'])

/**
 * What an answer or a refusal does to the poll set (quote-poller.ts says which outcome does
 * what): the quotes handed on and each symbol's status; a refused batch split, a refused symbol
 * set aside, a refused market blocked, agriculture moved to its kline; the parameter name and
 * batch size a family is asked with, learned from its refusals.
 */
export interface OutcomeDeps {
  clock: Clock
  queue: PollQueue
  verdicts: PollVerdicts
  recheckMs: number
  badSymbolRetryMs: number
  onUpdates(u: QuoteUpdate[]): void
  onSymbolStatus(s: SymbolStatus): void
  onError?: ((e: TickdeskError) => void) | undefined
  /** The service answered a call (whatever it held): a transport failure no longer holds. */
  onAnswered?: (() => void) | undefined
}

export class PollOutcomes {
  /** Families whose last whole batch failed INVALID_REQUEST with no refused symbol found. */
  private readonly unexplained400 = new Set<EndpointFamily>()
  /**
   * The spec names the quote parameter `symbols` with the alias `symbol` for one endpoint and
   * leaves the multi-market quote's "not shown": a family that calls `symbols` an invalid request
   * is asked once with `symbol`, and keeps whichever the service took.
   */
  readonly paramName = new Map<EndpointFamily, 'symbols' | 'symbol'>()
  private readonly aliasTried = new Set<EndpointFamily>()
  readonly statuses = new Map<SymbolKey, SymbolStatusCode>()

  constructor(private readonly o: OutcomeDeps) {}

  /** Returns true when the batch is asked again (its symbols are still owed). */
  accept(batch: Batch, answer: Answer, sentAt: number): boolean {
    if (batch.aliasProbe && answer.updates.length === 0) {
      // An answer without a single quote to `symbol`: the service ignored it. Back to `symbols`.
      this.paramName.delete(batch.route.family)
      return this.o.queue.queue([{ ...batch, aliasProbe: false }])
    }
    const now = this.o.clock.now()
    const seen = new Set<SymbolKey>(answer.keys)
    for (const key of batch.keys) {
      const t = this.o.queue.lookup(key)
      if (!t) continue
      if (seen.has(key)) {
        this.o.queue.answered(t, sentAt, now)
        this.setStatus(key, 'OK', '')
      } else if (t.market === 'agri' && !batch.kline) {
        this.toKline(t)
      } else {
        this.setStatus(key, 'NO_DATA', `The service returned no quote for ${t.symbol}`)
      }
    }
    // Symbols the trader stopped watching while the call was out are not ingested. One that only
    // left the poll set meanwhile (its market's stream name was proven: it streams now) is: the
    // answer is the service's price of a moment ago, which its row and the stream's trust check
    // need (until the stream's prices are trusted, it is the only price the row may show).
    const { updates, keys } = answer
    const queue = this.o.queue
    const live = keys.every((k) => queue.wanted(k))
      ? updates
      : updates.filter((_, i) => queue.wanted(keys[i] as SymbolKey))
    this.o.onAnswered?.()
    if (live.length > 0) this.o.onUpdates(live)
    return false
  }

  /** Returns true when the batch was split and its parts queued (its symbols are still owed). */
  reject(batch: Batch, error: TickdeskError): boolean {
    const code = String(error.code)
    if (code === 'ABORTED') return false
    const members = this.o.queue.members(batch)
    if (REFUSED_400.has(code)) return this.refused(batch, members, code, error.message)
    if (refusesWhatWasAsked({ status: error.status, code })) {
      const parts = splitByMarket(batch, members)
      if (parts.length > 0) return this.o.queue.queue(parts)
      const market = members[0]?.market
      if (market === 'agri' && !batch.kline) {
        // The multi-market quote does not serve agriculture for this key: its bars may.
        this.o.verdicts.refuseAgriQuotes(this.o.clock.now() + this.o.recheckMs)
        for (const t of members) this.o.queue.owe(t.key, this.o.clock.now())
        return true
      }
      if (market) this.blockMarket(batch.route.family, market, code)
      return false
    }
    this.o.onError?.(error)
    return false
  }

  private refused(batch: Batch, members: BatchMember[], code: string, message: string): boolean {
    const family = batch.route.family
    if (code === 'INVALID_REQUEST' && !batch.kline) {
      if (batch.aliasProbe) this.paramName.delete(family)
      else if (!this.aliasTried.has(family)) {
        this.aliasTried.add(family)
        this.paramName.set(family, 'symbol')
        return this.o.queue.queue([{ ...batch, aliasProbe: true }])
      }
    }
    if (members.length > 1) {
      // A whole batch refused with INVALID_REQUEST again although splitting the last one found no
      // refused symbol: the batch is too big for this service (the spec shows 1 to 50 for one
      // endpoint only), so this family's batches are halved from now on.
      if (code === 'INVALID_REQUEST' && !batch.split) {
        if (this.unexplained400.has(family))
          this.o.queue.batchCap.set(family, Math.max(1, Math.ceil(members.length / 2)))
        this.unexplained400.add(family)
      }
      return this.o.queue.queue(splitRefused(batch, members, message))
    }
    const t = members[0]
    if (!t) return false
    if (code === 'INVALID_REQUEST') this.unexplained400.delete(family)
    if (t.market === 'agri' && !batch.kline && SYMBOL_400.has(code)) {
      this.toKline(t)
      return true
    }
    const minutes = Math.round(this.o.badSymbolRetryMs / 60_000)
    const text = `The service refused ${t.symbol} (${code}): not asked again for ${minutes} min`
    const verdict = {
      code: statusCode(code),
      message: text,
      until: this.o.clock.now() + this.o.badSymbolRetryMs,
    }
    this.o.verdicts.markBad(t.key, verdict)
    this.setStatus(t.key, verdict.code, text)
    return false
  }

  private toKline(t: BatchMember | Tracked): void {
    this.o.verdicts.useKline(t.key)
    this.o.queue.owe(t.key, this.o.clock.now())
  }

  blockMarket(family: EndpointFamily, market: Market, code: string): string {
    const minutes = Math.round(this.o.recheckMs / 60_000)
    const message =
      code === 'MARKET_NOT_ENABLED' || code === 'API_KEY_SCOPE_DENIED'
        ? `${market} is not available on this plan or key (${code}); rechecking in ${minutes} min`
        : `The service refused ${market} (403 ${code}); rechecking in ${minutes} min`
    const verdict = {
      code: statusCode(code),
      message,
      until: this.o.clock.now() + this.o.recheckMs,
    }
    this.o.verdicts.block(family, market, verdict)
    const now = this.o.clock.now()
    for (const t of this.o.queue.all()) {
      if (t.market === market && this.o.queue.routeOf(t, now).route.family === family)
        this.setStatus(t.key, verdict.code, message)
    }
    return message
  }

  setStatus(key: SymbolKey, code: SymbolStatusCode, message: string): void {
    if (this.statuses.get(key) === code) return
    this.statuses.set(key, code)
    this.o.onSymbolStatus({ key, code, message })
  }
}

/** The service's code as a row status; a 403 code the spec does not list is FORBIDDEN. */
function statusCode(code: string): SymbolStatusCode {
  switch (code) {
    case 'INVALID_SYMBOL':
    case 'UNKNOWN_SYMBOL':
    case 'INVALID_REQUEST':
    case 'MARKET_NOT_ENABLED':
    case 'API_KEY_SCOPE_DENIED':
      return code
    default:
      return 'FORBIDDEN'
  }
}
