import type { DoctorReport } from '../../shared/bridge'
import type { Market } from '../../shared/markets/market'
import type { Clock, TimerHandle } from '../clock'
import { MARKET_403 } from '../errors'
import type { ParsedFrame } from '../push/parsed-frame'
import { classifyErrorFrame } from '../stream/stream-error-frame'
import { ANSWER_BOUND_MS, COMMON_SPELLINGS, StreamMarketNames } from '../stream/stream-market-names'

type Check = DoctorReport['checks'][number]

/** One symbol per market the doctor subscribes (one at a time: far under any plan's symbol cap). */
export const PROBE_SYMBOLS: Readonly<Partial<Record<Market, string>>> = {
  crypto: 'BTCUSDT',
  'usdt-futures': 'ETHUSDT',
  fx: 'EURUSD',
}

export interface MarketProbeOptions {
  clock: Clock
  markets: readonly Market[]
  /** Explicit names (the user's setting) and the service's own REST tags, per market. */
  overrides?: Partial<Record<Market, string>>
  tags?: ReadonlyMap<Market, string>
  send(msg: { action: 'subscribe' | 'unsubscribe'; market: string; symbols: string[] }): void
}

/**
 * `tickdesk doctor`'s stream check per market, on the doctor's one socket: each market's probe
 * symbol is subscribed under the names StreamMarketNames would try (the same order and bounds as
 * the app), one market at a time, so every push, ack or error frame belongs to the market asked.
 * Per market: pushes seen (and under which name), acknowledged but silent, refused (the frame's
 * code and message), or not in the plan (a market 403 naming the symbol).
 */
export class StreamMarketProbe {
  private wake: (() => void) | null = null
  private current: {
    market: Market
    symbol: string
    pushed: boolean
    notInPlan: string | null
  } | null = null
  private readonly names: StreamMarketNames

  constructor(private readonly o: MarketProbeOptions) {
    this.names = new StreamMarketNames({
      clock: o.clock,
      ...(o.overrides ? { overrides: o.overrides } : {}),
      onChange: () => this.wake?.(),
    })
    for (const [market, tag] of o.tags ?? []) this.names.serviceTag(market, tag)
  }

  /** Every frame the socket reads while probing. */
  onFrame(f: ParsedFrame): void {
    const c = this.current
    if (c === null) return
    if (f.kind === 'tick' && f.symbol === c.symbol) {
      c.pushed = true
      this.names.pushed(c.market)
    } else if (f.kind === 'subscribed') this.names.acked(c.market)
    else if (f.kind === 'error') {
      const action = classifyErrorFrame(f)
      if (action.kind === 'market') this.names.refusedFrame(f.code, f.message)
      else if (action.kind === 'symbols' && MARKET_403.has(f.code)) {
        c.notInPlan = `${f.code}: ${f.message}`
        this.wake?.()
      } else if (action.kind === 'symbols') this.names.refusedFrame(f.code, f.message)
    }
  }

  async run(): Promise<Check[]> {
    const checks: Check[] = []
    for (const market of this.o.markets) checks.push(await this.probe(market))
    await this.names.dispose()
    return checks
  }

  private async probe(market: Market): Promise<Check> {
    const symbol = PROBE_SYMBOLS[market] ?? 'BTCUSDT'
    const c = { market, symbol, pushed: false, notInPlan: null as string | null }
    this.current = c
    const started = this.o.clock.now()
    // Every candidate's bound, and one more: past this the market is closed or never answers.
    const deadline = started + ANSWER_BOUND_MS[market] * (COMMON_SPELLINGS[market].length + 4)
    let name = ''
    while (this.o.clock.now() < deadline) {
      const report = this.names.report().find((r) => r.market === market)
      if (c.pushed || c.notInPlan !== null || report?.state === 'failed') break
      if (name !== this.names.wire(market)) {
        if (name !== '') this.o.send({ action: 'unsubscribe', market: name, symbols: [symbol] })
        name = this.names.wire(market)
        this.o.send({ action: 'subscribe', market: name, symbols: [symbol] })
        this.names.sent(market)
      }
      await this.wait(Math.max(1, deadline - this.o.clock.now()))
    }
    this.o.send({ action: 'unsubscribe', market: name, symbols: [symbol] })
    this.current = null
    const tried = this.names.report().find((r) => r.market === market)?.failures ?? []
    const before = tried.map((t) => `"${t.name}" ${describe(t)}`).join('; ')
    const history = before === '' ? '' : ` (before: ${before})`
    const latencyMs = this.o.clock.now() - started
    if (c.notInPlan !== null)
      return {
        name: `stream ${market}`,
        ok: false,
        code: c.notInPlan.split(':')[0] ?? null,
        message: `not in your plan or key scope (${c.notInPlan})`,
        latencyMs: null,
      }
    if (c.pushed)
      return {
        name: `stream ${market}`,
        ok: true,
        code: null,
        message: `pushes seen under "${name}"${history}`,
        latencyMs,
      }
    const last = tried.at(-1)
    return {
      name: `stream ${market}`,
      ok: false,
      code: last?.code ?? 'NO_ANSWER',
      message: `cannot stream: no name worked${history}; its symbols will be polled`,
      latencyMs: null,
    }
  }

  private wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      let timer: TimerHandle | null = null
      this.wake = () => {
        this.o.clock.clearTimeout(timer)
        this.wake = null
        resolve()
      }
      timer = this.o.clock.setTimeout(() => this.wake?.(), ms)
    })
  }
}

function describe(t: { how: string; code: string; message: string }): string {
  if (t.how === 'refused') return `refused (${t.code}: ${t.message})`
  if (t.how === 'silent') return 'acknowledged but silent'
  return 'no answer'
}
