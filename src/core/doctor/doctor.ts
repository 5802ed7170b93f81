import type { DoctorReport } from '../../shared/bridge'
import type { AuthScheme } from '../rest/auth-header'
import { PLAN_LIMITS, type Market, type Plan } from '../../shared/markets/market'
import { systemClock, type Clock } from '../clock'
import { ACCOUNT_WIDE_403, isAccountCode, MARKET_403, SYMBOL_400, TickdeskError } from '../errors'
import { probeStream, skippedCheck as skipped, type Check } from './doctor-stream'
import { deriveStreamUrl } from '../engine/engine-config'
import { klineRoute, quoteRoute, type EndpointFamily } from '../rest/market-routes'
import { RateGovernor } from '../rest/rate-governor'
import { RestClient } from '../rest/rest-client'

/**
 * `tickdesk doctor` / testConnection: what works with this key, spending as few metered requests
 * as possible (spec: Limits, REST calls and the handshake are metered). One crypto quote proves the
 * key and the crypto family at once; then one request per other family (so at most 5 REST calls).
 * The stream: the running engine's socket as it stands (`stream`, the app: never a second socket),
 * or for the CLI alone one handshake (doctor-stream.ts). A 403 MARKET_NOT_ENABLED /
 * API_KEY_SCOPE_DENIED means "not in your plan", which is reported but is not a broken setup; a 400
 * on the probe symbol still proves the family is reachable and entitled. A 401 or account-wide 403
 * stops the run.
 */
export interface DoctorConfig {
  baseUrl: string
  apiKey: string
  plan: Plan
  streamUrl?: string
  rpm?: number
  /** Share the running engine's budget; default: a fresh one for the plan. */
  governor?: RateGovernor
  /** The running engine's REST client (its key, base URL and budget). */
  client?: RestClient
  /** The running engine's stream as it stands; without it, one handshake of our own. */
  stream?: () => Promise<Check>
  clock?: Clock
  timeoutMs?: number
  probeSymbols?: Partial<Record<EndpointFamily, string>>
  /** How the key is sent (auth-header.ts). */
  auth?: AuthScheme
  /** Explicit stream market names (Settings, --stream-market, TICKDESK_STREAM_MARKETS). */
  streamMarkets?: Partial<Record<Market, string>>
}

const PROBES: Record<EndpointFamily, { symbol: string; label: string }> = {
  crypto: { symbol: 'BTCUSDT', label: 'crypto quotes' },
  'usdt-futures': { symbol: 'BTCUSDT', label: 'USDT-margined futures quotes' },
  multi: {
    symbol: 'EURUSD',
    label: 'multi-market quotes (FX, commodities, stocks, futures, indices)',
  },
  'futures-kline': { symbol: 'ES1!', label: 'continuous futures candles' },
  'agri-kline': { symbol: 'ZC1!', label: 'agricultural candles' },
}
const PATHS: Record<EndpointFamily, { path: string; kline: boolean }> = {
  crypto: { path: quoteRoute('crypto').path, kline: false },
  'usdt-futures': { path: quoteRoute('usdt-futures').path, kline: false },
  multi: { path: quoteRoute('fx').path, kline: false },
  'futures-kline': { path: klineRoute('futures')?.path ?? '', kline: true },
  'agri-kline': { path: klineRoute('agri')?.path ?? '', kline: true },
}
const FAMILIES: EndpointFamily[] = ['usdt-futures', 'multi', 'futures-kline', 'agri-kline']
const SPENT_WITHOUT_STATUS = new Set(['NETWORK', 'TIMEOUT', 'BAD_RESPONSE'])

export async function runDoctor(config: DoctorConfig): Promise<DoctorReport> {
  const clock = config.clock ?? systemClock
  const rpm = config.rpm ?? PLAN_LIMITS[config.plan].rpm
  const governor = config.governor ?? new RateGovernor({ rpm, clock, random: Math.random })
  const client =
    config.client ??
    new RestClient({
      baseUrl: config.baseUrl,
      apiKey: config.apiKey,
      governor,
      clock,
      timeoutMs: config.timeoutMs,
      ...(config.auth ? { auth: config.auth } : {}),
    })
  const checks: Check[] = []
  let spent = 0
  /** The service's own market tags seen in REST answers (a multi-market quote's `market`). */
  const tags = new Map<Market, string>()

  const probe = async (
    family: EndpointFamily,
  ): Promise<{ error: TickdeskError | null; ms: number }> => {
    const symbol = config.probeSymbols?.[family] ?? PROBES[family].symbol
    const { path, kline } = PATHS[family]
    const query: Record<string, string> = kline
      ? { symbol, interval: '1', limit: '1' }
      : { symbols: symbol }
    const started = clock.now()
    try {
      const { data } = await client.get(path, query)
      if (family === 'multi') readTag(data, tags)
      spent += 1
      return { error: null, ms: clock.now() - started }
    } catch (e) {
      const error =
        e instanceof TickdeskError ? e : new TickdeskError({ code: 'NETWORK', message: String(e) })
      if (error.status !== null || SPENT_WITHOUT_STATUS.has(String(error.code))) spent += 1
      return { error, ms: clock.now() - started }
    }
  }

  const first = await probe('crypto')
  const keyCheck = keyVerdict(first.error, first.ms)
  checks.push(
    withRequestId(keyCheck, first.error),
    withRequestId(familyVerdict('crypto', first.error, first.ms, config), first.error),
  )
  let stopCode: string | null = keyCheck.ok ? accountStop(first.error) : keyCheck.code
  for (const family of FAMILIES) {
    if (stopCode) {
      checks.push(skipped(family, stopCode))
      continue
    }
    const r = await probe(family)
    checks.push(withRequestId(familyVerdict(family, r.error, r.ms, config), r.error))
    stopCode = accountStop(r.error)
  }
  if (config.stream) checks.push(await config.stream())
  else if (stopCode) checks.push(skipped('stream', stopCode))
  else {
    const url = config.streamUrl ?? deriveStreamUrl(config.baseUrl)
    // The stream is probed per market the plan includes (its REST family answered).
    const markets = STREAM_PROBED.filter((m) =>
      checks.some((c) => c.name === quoteRoute(m).family && c.ok),
    )
    const stream = await probeStream(
      url,
      config.apiKey,
      governor,
      clock,
      config.timeoutMs ?? 10_000,
      {
        markets,
        tags,
        ...(config.streamMarkets ? { overrides: config.streamMarkets } : {}),
      },
    )
    if (stream.spent) spent += 1
    checks.push(stream.check, ...stream.markets)
  }
  const ok = checks.every((c) => c.ok || MARKET_403.has(c.code ?? ''))
  return { ok, baseUrl: config.baseUrl, plan: config.plan, requestsSpent: spent, checks }
}

/** One market per quote family; the others share the multi-market stream reading of FX. */
const STREAM_PROBED: readonly Market[] = ['crypto', 'usdt-futures', 'fx']

function readTag(data: unknown, tags: Map<Market, string>): void {
  const row: unknown = Array.isArray(data) ? data[0] : null
  const tag = (row as { market?: unknown } | null)?.market
  if (typeof tag === 'string' && tag !== '') tags.set('fx', tag)
}

/** The failed call's request id, as the trader quotes it to the provider. */
function withRequestId(check: Check, error: TickdeskError | null): Check {
  const id = error?.requestId ?? null
  if (id === null || check.ok) return check
  return {
    ...check,
    requestId: id,
    message: `${check.message} (request id ${id} - quote it to your provider)`,
  }
}

function keyVerdict(error: TickdeskError | null, ms: number): Check {
  const code = error ? String(error.code) : null
  if (code === 'UNAUTHORIZED') {
    return {
      name: 'key',
      ok: false,
      code,
      message: 'The service rejected the API key (401)',
      latencyMs: ms,
    }
  }
  if (code && ACCOUNT_WIDE_403.has(code)) {
    return {
      name: 'key',
      ok: false,
      code,
      message: `The key is valid but the account is refused (${code})`,
      latencyMs: ms,
    }
  }
  if (error && error.status === null) {
    return {
      name: 'key',
      ok: false,
      code,
      message: `Service unreachable: ${error.message}`,
      latencyMs: null,
    }
  }
  return { name: 'key', ok: true, code: null, message: 'API key accepted', latencyMs: ms }
}

function familyVerdict(
  family: EndpointFamily,
  error: TickdeskError | null,
  ms: number,
  config: DoctorConfig,
): Check {
  const { label } = PROBES[family]
  const symbol = config.probeSymbols?.[family] ?? PROBES[family].symbol
  if (!error) return { name: family, ok: true, code: null, message: `${label}: OK`, latencyMs: ms }
  const code = String(error.code)
  if (SYMBOL_400.has(code)) {
    return {
      name: family,
      ok: true,
      code,
      message: `${label}: reachable (probe symbol ${symbol} not recognised)`,
      latencyMs: ms,
    }
  }
  if (MARKET_403.has(code)) {
    return {
      name: family,
      ok: false,
      code,
      message: `${label}: not included in your plan or key scope (${code})`,
      latencyMs: ms,
    }
  }
  return {
    name: family,
    ok: false,
    code,
    message: `${label}: ${error.message}`,
    latencyMs: error.status === null ? null : ms,
  }
}

function accountStop(error: TickdeskError | null): string | null {
  if (!error) return null
  const code = String(error.code)
  return isAccountCode(code) ? code : null
}
