import WebSocket from 'ws'
import type { DoctorReport } from '../../shared/bridge'
import type { Clock } from '../clock'
import { authHeader, type AuthScheme } from '../rest/auth-header'
import { TickdeskError } from '../errors'
import { parseFrame } from '../push/push-parser'
import type { RateGovernor } from '../rest/rate-governor'
import { CAP_GRACE_MS } from '../stream/stream-caps'
import { classifyErrorFrame } from '../stream/stream-error-frame'
import { readUpgradeRejection } from '../stream/upgrade-rejection'
import { StreamMarketProbe, type MarketProbeOptions } from './doctor-stream-markets'

export type Check = DoctorReport['checks'][number]

type MarketOptions = Omit<MarketProbeOptions, 'send' | 'clock'> & { auth?: AuthScheme }
interface Outcome {
  code: string | null
  message: string
}

/** One handshake, watched until it settles: OK after the grace, or the first failure seen. */
class HandshakeWatch {
  readonly outcome: Promise<Outcome>
  openedAt: number | null = null
  rejected: TickdeskError | null = null
  marketChecks: Check[] = []
  private readonly ws: WebSocket
  private prober: StreamMarketProbe | null = null
  private settled = false
  private resolve: (o: Outcome) => void = () => {}
  private readonly timer: ReturnType<Clock['setTimeout']>
  private grace: ReturnType<Clock['setTimeout']> | null = null

  constructor(
    url: string,
    apiKey: string,
    private readonly clock: Clock,
    timeoutMs: number,
    private readonly markets: MarketOptions | undefined,
  ) {
    this.outcome = new Promise((resolve) => (this.resolve = resolve))
    this.ws = new WebSocket(url, { headers: authHeader(apiKey, markets?.auth) })
    this.timer = clock.setTimeout(
      () => this.done({ code: 'TIMEOUT', message: `no stream handshake within ${timeoutMs} ms` }),
      timeoutMs,
    )
    this.ws.once('open', () => this.onOpen())
    this.ws.on('message', (data: WebSocket.RawData) => this.onMessage(data))
    this.ws.once('close', (_code: number, reason: Buffer) => this.onClose(reason.toString()))
    this.ws.once('unexpected-response', (_req, res) => {
      // Read the envelope like the stream client does, so an account-wide 403 keeps its code.
      void readUpgradeRejection(res, () => clock.now()).then((error) => {
        this.rejected = error
        this.done({ code: String(error.code), message: error.message })
      })
    })
    this.ws.on('error', (e) =>
      this.done({ code: 'NETWORK', message: `stream unreachable: ${e.message}` }),
    )
  }

  private done(r: Outcome): void {
    if (this.settled) return
    this.settled = true
    this.clock.clearTimeout(this.timer)
    this.clock.clearTimeout(this.grace)
    if (r.code === null) this.ws.close(1000)
    else this.ws.terminate()
    this.resolve(r)
  }

  private onOpen(): void {
    this.openedAt = this.clock.now()
    this.clock.clearTimeout(this.timer)
    this.grace = this.clock.setTimeout(() => this.afterGrace(), CAP_GRACE_MS)
  }

  private afterGrace(): void {
    const markets = this.markets
    if (markets === undefined || markets.markets.length === 0)
      return this.done({ code: null, message: 'stream OK' })
    // Per market on this same socket (one connection: the plan's cap, spec: Limits).
    this.prober = new StreamMarketProbe({
      ...markets,
      clock: this.clock,
      send: (msg) => this.ws.readyState === WebSocket.OPEN && this.ws.send(JSON.stringify(msg)),
    })
    void this.prober.run().then((checks) => {
      this.marketChecks = checks
      this.done({ code: null, message: 'stream OK' })
    })
  }

  private onMessage(data: WebSocket.RawData): void {
    for (const f of parseFrame(data, this.clock.now())) {
      this.prober?.onFrame(f)
      if (f.kind !== 'error') continue
      const action = classifyErrorFrame(f)
      if (action.kind === 'connection-cap' || action.kind === 'cap-unclear')
        this.done({ code: 'WS_CONN_LIMIT', message: `stream refused: ${f.message}` })
      else if (action.kind === 'account') this.done({ code: f.code, message: f.message })
    }
  }

  private onClose(why: string): void {
    this.done({
      code: why.includes('WS_CONN_LIMIT') ? 'WS_CONN_LIMIT' : 'NETWORK',
      message: `stream closed by the service${why ? `: ${why}` : ''}`,
    })
  }
}

/**
 * `tickdesk doctor`'s own stream check, for a process that has no engine running: one metered
 * handshake, timed, then closed. An upgrade is not yet a working stream: a service over the
 * connection cap may accept it and then say WS_CONN_LIMIT (spec: Errors, no HTTP status), so the
 * socket is watched for CAP_GRACE_MS before it counts as OK. The app never uses this: its test
 * reports the engine's own socket (engine.testConnection), which never opens a second one.
 */
export async function probeStream(
  url: string,
  apiKey: string,
  governor: RateGovernor,
  clock: Clock,
  timeoutMs: number,
  markets?: MarketOptions,
): Promise<{ check: Check; spent: boolean; markets: Check[] }> {
  if (!governor.tryAcquire('handshake')) {
    const code = governor.snapshot().code ?? 'RATE_LIMIT_EXCEEDED'
    return { check: skippedCheck('stream', code), spent: false, markets: [] }
  }
  const started = clock.now()
  const watch = new HandshakeWatch(url, apiKey, clock, timeoutMs, markets)
  const outcome = await watch.outcome
  const { openedAt } = watch
  if (outcome.code !== null) {
    governor.report({
      ok: false,
      error: watch.rejected ?? new TickdeskError({ code: outcome.code, message: outcome.message }),
    })
  }
  return {
    check: {
      name: 'stream',
      ok: outcome.code === null,
      code: outcome.code,
      message: outcome.message,
      latencyMs: outcome.code === null && openedAt !== null ? openedAt - started : null,
    },
    spent: outcome.code !== 'NETWORK' || openedAt !== null,
    markets: watch.marketChecks,
  }
}

export function skippedCheck(name: string, code: string): Check {
  return { name, ok: false, code, message: `skipped after ${code}`, latencyMs: null }
}
