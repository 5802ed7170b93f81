import { parseArgs } from 'node:util'
import { AlertEngine } from '../../core/alert-engine'
import { systemClock } from '../../core/clock'
import { MarketEngine } from '../../core/engine'
import { ACCOUNT_WIDE_403 } from '../../core/errors'
import { ensureDataDir, resolveDataDir } from '../../core/persistence/data-dir'
import { openDataStores } from '../../core/persistence/stores'
import { parseSymbolKey, symbolKey } from '../../shared/market'
import type { Quote } from '../../shared/quote'
import type { FeedStatus } from '../../shared/status'
import { chooseFeed, FEED_HELP, FEED_OPTIONS, UsageError } from '../feed-options'
import { EXIT, type CliCommand } from '../io'
import { writeJson } from '../output'
import { untilAborted } from '../until-aborted'
import { LiveTable } from '../live-table'

const HELP = `Usage: tickdesk watch <market:SYMBOL>... [--json] [--duration S]

Live quotes. On a terminal, a live table; with --json, NDJSON on stdout (quote, status,
symbol-status and alert objects, one per line).

Options:
  --json             NDJSON output
  --duration S       stop after S seconds (default: until Ctrl-C)
${FEED_HELP}
  -h, --help         show this help
Exit codes: 0 done, 2 bad usage, 3 unauthorized (401), 4 account-wide 403.
`

const FLUSH_MS = 100

export function quoteLine(q: Quote): Record<string, unknown> {
  return {
    type: 'quote',
    market: q.market,
    symbol: q.symbol,
    last: q.last,
    change: q.change,
    changePercent: q.changePercent,
    bid: q.bid,
    ask: q.ask,
    volume: q.volume,
    ts: q.ts,
    source: q.source,
    stale: q.stale,
  }
}

export function statusLine(s: FeedStatus): Record<string, unknown> {
  return { type: 'status', state: s.state, code: s.code, message: s.message, retryAt: s.retryAt }
}

export const run: CliCommand = async (args, io) => {
  let parsed
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        json: { type: 'boolean' },
        duration: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        ...FEED_OPTIONS,
      },
    })
  } catch (e) {
    io.stderr.write(`tickdesk watch: ${(e as Error).message}\n\n${HELP}`)
    return EXIT.usage
  }
  const { values, positionals } = parsed
  if (values.help) {
    io.stdout.write(HELP)
    return EXIT.ok
  }
  const keys: string[] = []
  for (const p of positionals) {
    const ref = parseSymbolKey(p)
    if (!ref) {
      io.stderr.write(`tickdesk watch: "${p}" is not market:SYMBOL (e.g. crypto:BTCUSDT)\n`)
      return EXIT.usage
    }
    keys.push(symbolKey(ref.market, ref.symbol))
  }
  if (keys.length === 0) {
    io.stderr.write(`tickdesk watch: name at least one market:SYMBOL\n\n${HELP}`)
    return EXIT.usage
  }
  const duration = values.duration === undefined ? undefined : Number(values.duration)
  if (duration !== undefined && !(Number.isFinite(duration) && duration > 0)) {
    io.stderr.write(`tickdesk watch: --duration must be a positive number of seconds\n`)
    return EXIT.usage
  }
  let feed
  try {
    feed = await chooseFeed(values, io.env)
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr.write(`tickdesk watch: ${e.message}\n`)
      return EXIT.usage
    }
    throw e
  }
  if (feed.sim && !values.json)
    io.stderr.write(`Demo mode: embedded simulator at ${feed.config.baseUrl}\n`)

  const stores = openDataStores(await ensureDataDir(values['data-dir'] ?? resolveDataDir(io.env)))
  const engine = new MarketEngine(feed.config)
  const alerts = new AlertEngine({ clock: systemClock })
  const savedRules = await stores.alerts.load()
  alerts.setRules(
    savedRules.value.rules.filter((r) => keys.includes(r.key)),
    savedRules.value.states,
  )
  const cached = await stores.quotes.load()
  engine.seedFromCache(cached.value.filter((q) => keys.includes(q.key)))

  const json = Boolean(values.json)
  const table = json ? null : new LiveTable(io.stdout, io.env)
  const emit = (obj: Record<string, unknown>): void => {
    if (json) writeJson(io.stdout, obj)
  }
  const changed = new Set<string>()
  let flushTimer: ReturnType<typeof setTimeout> | null = null
  const flush = (): void => {
    flushTimer = null
    for (const key of changed) {
      const q = engine.quotes.get(key)
      if (!q) continue
      emit(quoteLine(q))
      table?.update(q)
    }
    changed.clear()
    table?.render(engine.status())
  }
  for (const q of engine.quotes.all()) changed.add(q.key)

  let exitCode: number = EXIT.ok
  const stop = new AbortController()
  io.signal.addEventListener('abort', () => stop.abort(), { once: true })

  engine.onQuote((q) => {
    changed.add(q.key)
    flushTimer ??= setTimeout(flush, FLUSH_MS)
    for (const a of alerts.evaluate(q)) {
      const ref = parseSymbolKey(a.key)
      emit({
        type: 'alert',
        id: a.id,
        ruleId: a.ruleId,
        market: ref?.market,
        symbol: ref?.symbol,
        message: a.message,
        price: a.price,
        at: a.at,
        whileAway: a.whileAway,
      })
      if (!json) io.stderr.write(`ALERT ${a.message}\n`)
    }
  })
  engine.onStatus((s) => {
    emit(statusLine(s))
    if (!json) table?.render(s)
    if (s.state === 'offline' || s.state === 'stopped') alerts.markGap()
    if (s.state === 'stopped' && s.code === 'UNAUTHORIZED') {
      exitCode = EXIT.unauthorized
      if (!json)
        io.stderr.write(
          'tickdesk watch: the service rejected the API key (401). Check TICKDESK_API_KEY.\n',
        )
      stop.abort()
    } else if (s.state === 'stopped' && s.code !== null && ACCOUNT_WIDE_403.has(s.code)) {
      exitCode = EXIT.forbidden
      if (!json)
        io.stderr.write(
          `tickdesk watch: the account cannot use the service (${s.code}): ${s.message}\n`,
        )
      stop.abort()
    }
  })
  engine.onSymbolStatus((s) => {
    const ref = parseSymbolKey(s.key)
    emit({
      type: 'symbol-status',
      market: ref?.market,
      symbol: ref?.symbol,
      code: s.code,
      message: s.message,
    })
    if (!json && s.code !== 'OK') io.stderr.write(`${s.key}: ${s.code} ${s.message}\n`)
  })

  for (const key of keys) engine.watch(key)
  engine.start()
  flush()
  await untilAborted(stop.signal, duration === undefined ? undefined : duration * 1000)
  await engine.stop()
  if (flushTimer) clearTimeout(flushTimer)
  flush()
  table?.finish()
  await stores.quotes.save(mergeCache(cached.value, engine.quotes.all())).catch((e: unknown) => {
    io.stderr.write(`tickdesk watch: could not save the quote cache: ${(e as Error).message}\n`)
  })
  await feed.sim?.close()
  return exitCode
}

function mergeCache(previous: Quote[], current: Quote[]): Quote[] {
  const byKey = new Map(previous.map((q) => [q.key, q]))
  for (const q of current) byKey.set(q.key, q)
  return [...byKey.values()]
}
