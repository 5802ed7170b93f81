import type { FeedSource } from '../../core/persistence/source-id'
import { AlertDuty } from '../../app/alerts/alert-duty'
import { follow } from '../../app/alerts/alert-follow'
import { AlertLoop } from '../../app/alerts/alert-loop'
import { AlertLoopLock, ownerWords } from '../../app/alerts/alert-loop-lock'
import { inQuietHours } from '../../shared/alerts/quiet-hours'
import { keychainProfile } from '../../app/secrets/secret-store'
import { keychainWebhookSecrets } from '../../app/secrets/webhook-secrets'
import { WebhookBook } from '../../app/webhooks/webhook-book'
import { systemClock } from '../../core/clock'
import { MarketEngine } from '../../core/engine/engine'
import { ensureDataDir, resolveDataDir } from '../../core/persistence/data-dir'
import { openDataStores, type DataStores } from '../../core/persistence/stores'
import type { SymbolKey } from '../../shared/markets/market'
import { accountStop } from '../account-stop'
import { openCommandLog } from '../command-log'
import { cliDemo } from '../demo'
import { desktopNotifier } from '../desktop-notifier'
import { chooseCliFeed, UsageError } from '../feed-options'
import { EXIT, type CliIO } from '../io'
import { writeJson } from '../output'
import { untilAborted } from '../until-aborted'
import { alertLine } from '../watch-lines'
import { rulesFromFile } from '../../app/alerts/alert-rule-source'

export const RUN_OPTIONS = { duration: { type: 'string' } } as const

/** How often the runner re-reads rules and webhooks another process may have changed. */
const RELOAD_MS = 5_000

/**
 * `tickdesk alerts run`: the alert loop with no window and no browser, for a machine that stays
 * on. Same rules, same fire journal and history as the app, so a fire is announced once whichever
 * host fired it; the app lists what the runner fired while it was closed.
 */
export async function runAlerts(
  values: Record<string, string | boolean | undefined>,
  io: CliIO,
): Promise<number> {
  const duration = values.duration === undefined ? undefined : Number(values.duration)
  if (duration !== undefined && !(Number.isFinite(duration) && duration > 0)) {
    io.stderr.write('tickdesk alerts run: --duration must be a positive number of seconds\n')
    return EXIT.usage
  }
  let feed
  try {
    feed = await chooseCliFeed(values, io.env, cliDemo)
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr.write(`tickdesk alerts run: ${e.message}\n`)
      return EXIT.usage
    }
    throw e
  }
  const json = Boolean(values.json)
  const dataDir =
    typeof values['data-dir'] === 'string' ? values['data-dir'] : resolveDataDir(io.env)
  const stores = openDataStores(await ensureDataDir(dataDir))
  const log = openCommandLog(io, dataDir)
  const say = (message: string): void => void io.stderr.write(`tickdesk alerts run: ${message}\n`)
  if (feed.demo) say(`demo mode: embedded simulator at ${feed.config.baseUrl}`)
  // Quiet hours as the app set them (re-read with the rules): no desktop notification then.
  let quietHours = (await stores.settings.load()).value.quietHours
  const engine = new MarketEngine(feed.config, { logger: log.logger })
  const stop = new AbortController()
  const onSignal = (): void => stop.abort()
  // Ctrl-C during start-up (demo service, stores, rules) has already fired: no event will come.
  if (io.signal.aborted) stop.abort()
  else io.signal.addEventListener('abort', onSignal, { once: true })
  let exitCode: number = EXIT.ok
  let running = false
  // Runs the alerts while no other host does on this data folder (alert-duty.ts); otherwise
  // waits, says who does, and takes over within seconds of its end.
  const duty = new AlertDuty({
    lock: new AlertLoopLock(stores.dir, '`tickdesk alerts run`', systemClock.now()),
    clock: systemClock,
    onOwner: (owner) =>
      say(owner === null ? 'running the alerts now' : `${ownerWords(owner)}; waiting`),
    onProblem: say,
    run: () =>
      runLoop({
        stores,
        engine,
        source: feed.config,
        json,
        io,
        log,
        say,
        quietNow: () => inQuietHours(quietHours, systemClock.now()),
        reloadSettings: async () => {
          quietHours = (await stores.settings.load()).value.quietHours
        },
        statusCounts: () => running,
      }),
  })
  try {
    let lastState = ''
    engine.onStatus((s) => {
      // Before start() and after stop() the engine reports "stopped": not a state of the feed.
      if (!running) return
      if (s.state !== lastState) say(`feed ${s.state}${s.message ? `: ${s.message}` : ''}`)
      lastState = s.state
      const refused = accountStop('alerts run', s)
      if (refused === null) return
      exitCode = refused.exit
      io.stderr.write(refused.message)
      stop.abort()
    })
    await duty.start()
    running = true
    engine.start()
    await untilAborted(stop.signal, duration === undefined ? undefined : duration * 1000)
    running = false
    await duty.close()
    await engine.stop()
  } finally {
    io.signal.removeEventListener('abort', onSignal)
    await duty.close()
    await log.close()
    await feed.demo?.close()
  }
  return exitCode
}

/**
 * The runner's alert loop while it holds the data folder's alerts: stdout, the desktop
 * notification and the webhooks as targets, the engine followed, the rules, quiet hours and
 * webhooks re-read every few seconds. Resolves to its stop.
 */
async function runLoop(ctx: {
  stores: DataStores
  engine: MarketEngine
  /** Where the engine's prices come from: its quote cache says when each was last seen. */
  source: FeedSource
  json: boolean
  io: CliIO
  log: ReturnType<typeof openCommandLog>
  say: (message: string) => void
  quietNow: () => boolean
  reloadSettings: () => Promise<void>
  statusCounts: () => boolean
}): Promise<() => Promise<void>> {
  const { stores, engine, io, log, say } = ctx
  const loop = await AlertLoop.open({
    stores,
    clock: systemClock,
    rules: rulesFromFile(),
    firedBy: 'runner',
    quietNow: ctx.quietNow,
    filter: (r) => r.enabled,
    onProblem: (code, message) => {
      say(message)
      log.logger.log('warn', 'alerts', { code, detail: message })
    },
  })
  const webhooks = new WebhookBook({
    store: stores.webhooks,
    clock: systemClock,
    loop,
    onProblem: (_code, message) => say(message),
    secrets: keychainWebhookSecrets({ profile: keychainProfile(io.env) }),
  })
  loop.addTarget({
    name: 'stdout',
    // Done in the write's callback: the pipe took the line (see watch.ts).
    deliver: (a) =>
      new Promise<void>((resolve, reject) => {
        log.logger.log('info', 'alert fired', { key: a.key, detail: a.message, fireId: a.id })
        const written = (e?: Error | null): void => (e ? reject(e) : resolve())
        if (ctx.json) writeJson(io.stdout, alertLine(a), written)
        else
          io.stdout.write(
            `${a.replayed === true ? '(again) ' : ''}${a.whileAway ? 'while you were away: ' : ''}${a.message}\n`,
            written,
          )
      }),
  })
  const notifier = desktopNotifier(io.env)
  if (notifier) loop.addTarget(notifier)
  await webhooks.sync()
  const cached = await stores.quotesOf(ctx.source).load()
  const seen = new Map(cached.value.map((q) => [q.key, q.receivedAt]))
  loop.markRestartGap((key) => seen.get(key))
  loop.start()

  const watched = new Map<SymbolKey, () => void>()
  const syncWatches = (): void => {
    const wanted = new Set(loop.watchedKeys())
    for (const [key, unwatch] of watched) {
      if (wanted.has(key)) continue
      unwatch()
      watched.delete(key)
    }
    for (const key of wanted) if (!watched.has(key)) watched.set(key, engine.watch(key))
  }
  const unfollow = follow(engine, loop, systemClock, { statusCounts: ctx.statusCounts })
  syncWatches()
  say(
    `watching ${watched.size} symbol(s) for ${loop.rules.filter((r) => r.enabled).length} alert(s)`,
  )
  const reload = setInterval(() => {
    void loop
      .reloadRules()
      .then(ctx.reloadSettings)
      .then(() => webhooks.sync())
      .then(syncWatches)
      .catch((e: unknown) => say(`could not re-read the alerts: ${String(e)}`))
  }, RELOAD_MS)
  return async () => {
    clearInterval(reload)
    unfollow()
    for (const unwatch of watched.values()) unwatch()
    watched.clear()
    await webhooks.close()
    await loop.close()
  }
}
