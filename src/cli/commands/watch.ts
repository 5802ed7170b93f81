import { MarketEngine } from '../../core/engine/engine'
import type { EngineConfig } from '../../core/engine/engine-config'
import type { Logger } from '../../core/log'
import { ensureDataDir, resolveDataDir } from '../../core/persistence/data-dir'
import { streamNameMemory } from '../../core/persistence/stream-name-memory'
import type { JsonStore } from '../../core/persistence/json-store'
import type { StreamNameMemory } from '../../core/stream/stream-market-names'
import { openDataStores, type DataStores } from '../../core/persistence/stores'
import { parseSymbolKey, symbolKey, type SymbolKey } from '../../shared/markets/market'
import type { Quote } from '../../shared/quote'
import { HELP_OPTIONS, parseCommand, usageError } from '../command-args'
import { openCommandLog } from '../command-log'
import { FEED_HELP, FEED_OPTIONS, openCliFeed } from '../feed-options'
import { startCliAlerts } from '../alerts/cli-alerts'
import type { CliCommand, CliIO } from '../io'
import { untilAborted } from '../until-aborted'
import { WatchOutput } from '../alerts/watch-output'

export { quoteLine, statusLine } from '../watch-lines'

const HELP = `Usage: tickdesk watch <market:SYMBOL>... [--json] [--duration S] [--run-alerts]

Live quotes. On a terminal, a live table; with --json, NDJSON on stdout only (quote, status,
symbol-status and alert objects, one per line); messages go to stderr. Quote lines carry the
market's session (open, break, closed, pre, post) and sessionNext, when it next changes (epoch
ms; null for 24/7 markets). A closed market is asked every 5 minutes, open ones at full pace.

Alerts: the fires of the data folder are shown as they happen (\`alert\` lines with --json),
whichever process runs them; watch itself runs none. With --run-alerts it runs them all (every
rule of its service: stdout, the desktop notification, every webhook) while no other process
does, as \`tickdesk alerts run\` would.

Options:
  --json             NDJSON output
  --duration S       stop after S seconds (default: until Ctrl-C / SIGTERM)
  --run-alerts       run the folder's alerts here when no other process does
${FEED_HELP}
${HELP_OPTIONS}
Exit codes: 0 done (duration over, SIGINT or SIGTERM; the quote cache is saved), 2 bad usage,
3 unauthorized (401), 4 account-wide 403 (NO_SUBSCRIPTION, SUBSCRIPTION_EXPIRED, IP_DENIED,
GEO_DENIED).
`

export const run: CliCommand = async (args, io) => {
  const parsed = parseCommand(
    'watch',
    args,
    {
      json: { type: 'boolean' },
      duration: { type: 'string' },
      'run-alerts': { type: 'boolean' },
      ...FEED_OPTIONS,
    },
    HELP,
    io,
  )
  if ('exit' in parsed) return parsed.exit
  const { values, positionals } = parsed
  const keys: SymbolKey[] = []
  for (const p of positionals) {
    const ref = parseSymbolKey(p)
    if (!ref)
      return usageError('watch', `"${p}" is not market:SYMBOL (e.g. crypto:BTCUSDT)`, HELP, io)
    const key = symbolKey(ref.market, ref.symbol)
    if (!keys.includes(key)) keys.push(key)
  }
  if (keys.length === 0) return usageError('watch', 'name at least one market:SYMBOL', HELP, io)
  const duration = values.duration === undefined ? undefined : Number(values.duration)
  if (duration !== undefined && !(Number.isFinite(duration) && duration > 0))
    return usageError('watch', '--duration must be a positive number of seconds', HELP, io)
  const feed = await openCliFeed('watch', values, io, HELP)
  if (typeof feed === 'number') return feed
  try {
    const dataDir = values['data-dir'] ?? resolveDataDir(io.env)
    const stores = openDataStores(await ensureDataDir(dataDir))
    const log = openCommandLog(io, dataDir)
    log.logger.log('info', 'watch', { symbols: keys, demo: feed.config.demo })
    try {
      const names = await streamNameMemory(stores.streamNames, feed.config, log.logger)
      return await watch({
        keys,
        config: feed.config,
        stores,
        nameMemory: names,
        json: Boolean(values.json),
        runAlerts: values['run-alerts'] === true,
        duration,
        io,
        logger: log.logger,
      })
    } finally {
      await log.close()
    }
  } finally {
    await feed.demo?.close()
  }
}

interface WatchRun {
  keys: SymbolKey[]
  config: EngineConfig
  stores: DataStores
  nameMemory: StreamNameMemory
  json: boolean
  /** Run the folder's alerts as a full owner (--run-alerts), not only show them. */
  runAlerts: boolean
  duration: number | undefined
  io: CliIO
  logger: Logger
}

async function watch(w: WatchRun): Promise<number> {
  const { keys, config, stores, io } = w
  const engine = new MarketEngine(config, { logger: w.logger, nameMemory: w.nameMemory })
  const cache = stores.quotesOf(config)
  const cached = await cache.load()
  engine.seedFromCache(cached.value.filter((q) => keys.includes(q.key)))
  // Levels crossed while nothing ran fire "while you were away" from the last price seen.
  const seen = new Map(cached.value.map((q) => [q.key, q.receivedAt]))
  const stop = new AbortController()
  const onSignal = (): void => stop.abort()
  // Ctrl-C during start-up (demo service, stores, rules) has already fired: no event will come.
  if (io.signal.aborted) stop.abort()
  else io.signal.addEventListener('abort', onSignal, { once: true })
  // A closed pipe (`| head`) is an ordinary way to stop reading: shut down, do not crash.
  const onStdoutError = (): void => stop.abort()
  io.stdout.on('error', onStdoutError)
  const out = new WatchOutput(engine, keys, w.json, io, stop)
  const alerts = await startCliAlerts({
    stores,
    engine,
    config,
    io,
    role: '`tickdesk watch --run-alerts`',
    firedBy: 'watch',
    stdout: w.runAlerts ? out.alertTarget() : null,
    ...(w.runAlerts ? {} : { viewOnly: VIEWER_WHY, onViewedFire: (a) => out.showFire(a) }),
    lastSeen: (key) => seen.get(key),
    say: (message) => void io.stderr.write(`tickdesk watch: ${message}\n`),
    statusCounts: () => out.counts(),
  })
  for (const key of keys) engine.watch(key)
  engine.start()
  out.begin()
  await untilAborted(stop.signal, w.duration === undefined ? undefined : w.duration * 1000)
  out.end()
  await engine.stop()
  await alerts.stop()
  out.finish()
  io.signal.removeEventListener('abort', onSignal)
  io.stdout.off('error', onStdoutError)
  await saveQuoteCache(cache, engine.quotes.all(), cached.value, io)
  return out.exitCode()
}

const VIEWER_WHY =
  '`tickdesk watch` shows the fires of this data folder and runs none itself (`tickdesk watch --run-alerts` runs them when no other process does)'

/** The quote cache, so the next run (CLI or app) starts where this one stopped. */
async function saveQuoteCache(
  cache: JsonStore<Quote[]>,
  current: Quote[],
  previous: Quote[],
  io: Parameters<CliCommand>[1],
): Promise<void> {
  const byKey = new Map(previous.map((q) => [q.key, q]))
  for (const q of current) if (q.source !== 'cache') byKey.set(q.key, q)
  await cache.save([...byKey.values()]).catch((e: unknown) => {
    io.stderr.write(`tickdesk watch: could not save the quote cache: ${(e as Error).message}\n`)
  })
}
