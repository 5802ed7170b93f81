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
  markets?: Omit<MarketProbeOptions, 'send' | 'clock'> & { auth?: AuthScheme },
): Promise<{ check: Check; spent: boolean; markets: Check[] }> {
  if (!governor.tryAcquire('handshake')) {
    const code = governor.snapshot().code ?? 'RATE_LIMIT_EXCEEDED'
    return { check: skippedCheck('stream', code), spent: false, markets: [] }
  }
  let marketChecks: Check[] = []
  let prober: StreamMarketProbe | null = null
  const started = clock.now()
  let rejected: TickdeskError | null = null
  let openedAt: number | null = null
  const outcome = await new Promise<{ code: string | null; message: string }>((resolve) => {
    const ws = new WebSocket(url, { headers: authHeader(apiKey, markets?.auth) })
    let settled = false
    const done = (r: { code: string | null; message: string }): void => {
      if (settled) return
      settled = true
      clock.clearTimeout(timer)
      clock.clearTimeout(grace)
      if (r.code === null) ws.close(1000)
      else ws.terminate()
      resolve(r)
    }
    const timer = clock.setTimeout(
      () => done({ code: 'TIMEOUT', message: `no stream handshake within ${timeoutMs} ms` }),
      timeoutMs,
    )
    let grace: ReturnType<Clock['setTimeout']> | null = null
    ws.once('open', () => {
      openedAt = clock.now()
      clock.clearTimeout(timer)
      grace = clock.setTimeout(() => {
        if (markets === undefined || markets.markets.length === 0)
          return done({ code: null, message: 'stream OK' })
        // Per market on this same socket (one connection: the plan's cap, spec: Limits).
        prober = new StreamMarketProbe({
          ...markets,
          clock,
          send: (msg) => ws.readyState === WebSocket.OPEN && ws.send(JSON.stringify(msg)),
        })
        void prober.run().then((checks) => {
          marketChecks = checks
          done({ code: null, message: 'stream OK' })
        })
      }, CAP_GRACE_MS)
    })
    ws.on('message', (data: WebSocket.RawData) => {
      for (const f of parseFrame(data, clock.now())) {
        prober?.onFrame(f)
        if (f.kind !== 'error') continue
        const action = classifyErrorFrame(f)
        if (action.kind === 'connection-cap' || action.kind === 'cap-unclear')
          done({ code: 'WS_CONN_LIMIT', message: `stream refused: ${f.message}` })
        else if (action.kind === 'account') done({ code: f.code, message: f.message })
      }
    })
    ws.once('close', (_code: number, reason: Buffer) => {
      const why = reason.toString()
      done({
        code: why.includes('WS_CONN_LIMIT') ? 'WS_CONN_LIMIT' : 'NETWORK',
        message: `stream closed by the service${why ? `: ${why}` : ''}`,
      })
    })
    ws.once('unexpected-response', (_req, res) => {
      // Read the envelope like the stream client does, so an account-wide 403 keeps its code.
      void readUpgradeRejection(res, () => clock.now()).then((error) => {
        rejected = error
        done({ code: String(error.code), message: error.message })
      })
    })
    ws.on('error', (e) => done({ code: 'NETWORK', message: `stream unreachable: ${e.message}` }))
  })
  if (outcome.code !== null) {
    governor.report({
      ok: false,
      error: rejected ?? new TickdeskError({ code: outcome.code, message: outcome.message }),
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
    markets: marketChecks,
  }
}

export function skippedCheck(name: string, code: string): Check {
  return { name, ok: false, code, message: `skipped after ${code}`, latencyMs: null }
}
