import { AlertDuty } from '../../app/alerts/alert-duty'
import { follow } from '../../app/alerts/alert-follow'
import { AlertLoop } from '../../app/alerts/alert-loop'
import { AlertLoopLock, ownerWords } from '../../app/alerts/alert-loop-lock'
import { systemClock } from '../../core/clock'
import { MarketEngine } from '../../core/engine/engine'
import type { Logger } from '../../core/log'
import { ensureDataDir, resolveDataDir } from '../../core/persistence/data-dir'
import { streamNameMemory } from '../../core/persistence/stream-name-memory'
import type { JsonStore } from '../../core/persistence/json-store'
import type { StreamNameMemory } from '../../core/stream/stream-market-names'
import { openDataStores, type DataStores } from '../../core/persistence/stores'
import { parseSymbolKey, symbolKey, type SymbolKey } from '../../shared/markets/market'
import type { Quote } from '../../shared/quote'
import type { FeedStatus } from '../../shared/status'
import { accountStop } from '../account-stop'
import { HELP_OPTIONS, parseCommand, usageError } from '../command-args'
import { openCommandLog } from '../command-log'
import { FEED_HELP, FEED_OPTIONS, openCliFeed } from '../feed-options'
import { EXIT, type CliCommand } from '../io'
import { LiveTable } from '../live-table'
import { untilAborted } from '../until-aborted'
import { WatchJsonWriter } from '../watch-lines'
import { rulesFromFile } from '../../app/alerts/alert-rule-source'

export { quoteLine, statusLine } from '../watch-lines'

const HELP = `Usage: tickdesk watch <market:SYMBOL>... [--json] [--duration S]

Live quotes. On a terminal, a live table; with --json, NDJSON on stdout only (quote, status,
symbol-status and alert objects, one per line); messages go to stderr. Quote lines carry the
market's session (open, break, closed, pre, post) and sessionNext, when it next changes (epoch
ms; null for 24/7 markets). A closed market is asked every 5 minutes, open ones at full pace.

Options:
  --json             NDJSON output
  --duration S       stop after S seconds (default: until Ctrl-C / SIGTERM)
${FEED_HELP}
${HELP_OPTIONS}
Exit codes: 0 done (duration over, SIGINT or SIGTERM; the quote cache is saved), 2 bad usage,
3 unauthorized (401), 4 account-wide 403 (NO_SUBSCRIPTION, SUBSCRIPTION_EXPIRED, IP_DENIED,
GEO_DENIED).
`

const FLUSH_MS = 100

export const run: CliCommand = async (args, io) => {
  const parsed = parseCommand(
    'watch',
    args,
    { json: { type: 'boolean' }, duration: { type: 'string' }, ...FEED_OPTIONS },
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
      return await watch(
        keys,
        feed.config,
        stores,
        names,
        Boolean(values.json),
        duration,
        io,
        log.logger,
      )
    } finally {
      await log.close()
    }
  } finally {
    await feed.demo?.close()
  }
}

async function watch(
  keys: SymbolKey[],
  config: ConstructorParameters<typeof MarketEngine>[0],
  stores: DataStores,
  nameMemory: StreamNameMemory,
  json: boolean,
  duration: number | undefined,
  io: Parameters<CliCommand>[1],
  logger: Logger,
): Promise<number> {
  const engine = new MarketEngine(config, { logger, nameMemory })
  const cache = stores.quotesOf(config)
  const cached = await cache.load()
  engine.seedFromCache(cached.value.filter((q) => keys.includes(q.key)))
  // Levels crossed while nothing ran fire "while you were away" from the last price seen.
  const seen = new Map(cached.value.map((q) => [q.key, q.receivedAt]))

  const writer = json ? new WatchJsonWriter(io.stdout, systemClock) : null
  const table = json ? null : new LiveTable(io.stdout, io.env, keys)
  const stop = new AbortController()
  const onSignal = (): void => stop.abort()
  // Ctrl-C during start-up (demo service, stores, rules) has already fired: no event will come.
  if (io.signal.aborted) stop.abort()
  else io.signal.addEventListener('abort', onSignal, { once: true })
  // A closed pipe (`| head`) is an ordinary way to stop reading: shut down, do not crash.
  const onStdoutError = (): void => stop.abort()
  io.stdout.on('error', onStdoutError)

  const changed = new Set<SymbolKey>()
  let flushTimer: ReturnType<typeof setTimeout> | null = null
  const flush = (): void => {
    flushTimer = null
    if (stop.signal.aborted && !json) return
    for (const key of changed) {
      const q = engine.quotes.get(key)
      if (!q) continue
      writer?.quote(q)
      table?.update(q)
    }
    changed.clear()
    table?.render(engine.status())
  }
  // Cached quotes first (source "cache", stale), before anything the network says.
  for (const q of engine.quotes.all()) changed.add(q.key)
  flush()

  let exitCode: number = EXIT.ok
  let listening = true
  // The alerts run here only while no other host (the app, `alerts run`) runs them on this
  // data folder: one loop, one fire id per crossing (alert-duty.ts).
  const duty = new AlertDuty({
    lock: new AlertLoopLock(stores.dir, '`tickdesk watch`', systemClock.now()),
    clock: systemClock,
    onOwner: (owner) =>
      io.stderr.write(
        `tickdesk watch: ${owner === null ? 'running the alerts now' : `${ownerWords(owner)}; its alerts are not printed here`}\n`,
      ),
    onProblem: (message) => io.stderr.write(`tickdesk watch: ${message}\n`),
    run: async () => {
      const alerts = await AlertLoop.open({
        stores,
        clock: systemClock,
        rules: rulesFromFile(),
        firedBy: 'watch',
        filter: (r) => r.enabled && keys.includes(r.key),
        onProblem: (_code, message) => io.stderr.write(`tickdesk watch: ${message}\n`),
      })
      alerts.markRestartGap((key) => seen.get(key))
      alerts.addTarget({
        name: 'stdout',
        // Done once the pipe took the line (its write callback), not when write() returned: a
        // kill before then would lose a line that was only queued in this process.
        deliver: (a) =>
          new Promise<void>((resolve, reject) => {
            table?.note(`ALERT ${a.message}`)
            if (table && !table.tty) io.stderr.write(`ALERT ${a.message}\n`)
            if (writer === null) return resolve()
            writer.alert(a, (e) => (e ? reject(e) : resolve()))
          }),
      })
      alerts.start()
      const unfollow = follow(engine, alerts, systemClock, {
        statusCounts: () => listening && started,
      })
      return async () => {
        unfollow()
        await alerts.close()
      }
    },
  })
  engine.onQuote((q) => {
    if (!listening) return
    changed.add(q.key)
    flushTimer ??= setTimeout(flush, FLUSH_MS)
  })
  let started = false
  engine.onStatus((s) => {
    // Before start() the engine reports a placeholder "stopped": not a state the feed was in.
    if (!listening || !started) return
    onStatus(s)
  })
  const onStatus = (s: FeedStatus): void => {
    writer?.status(s)
    table?.render(s)
    const refused = accountStop('watch', s)
    if (refused === null) return
    exitCode = refused.exit
    io.stderr.write(refused.message)
    stop.abort()
  }
  engine.onSymbolStatus((s) => {
    if (!listening) return
    writer?.symbolStatus(s)
    table?.problem(s.key, s.code)
    if (table && !table.tty && s.code !== 'OK')
      io.stderr.write(`${s.key}: ${s.code} ${s.message}\n`)
  })

  await duty.start()
  for (const key of keys) engine.watch(key)
  started = true
  engine.start()
  onStatus(engine.status())
  await untilAborted(stop.signal, duration === undefined ? undefined : duration * 1000)
  if (flushTimer) clearTimeout(flushTimer)
  flush()
  // Shutdown is not news: the consumer asked for it (or the exit code says why).
  listening = false
  await engine.stop()
  await duty.close()
  table?.finish()
  io.signal.removeEventListener('abort', onSignal)
  io.stdout.off('error', onStdoutError)
  await saveQuoteCache(cache, engine.quotes.all(), cached.value, io)
  return exitCode
}

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
