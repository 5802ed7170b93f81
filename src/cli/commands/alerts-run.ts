import type { AlertTarget } from '../../app/alerts/alert-loop'
import { systemClock } from '../../core/clock'
import { MarketEngine } from '../../core/engine/engine'
import { ensureDataDir, resolveDataDir } from '../../core/persistence/data-dir'
import { openDataStores } from '../../core/persistence/stores'
import type { FeedStatus } from '../../shared/status'
import { accountStop } from '../account-stop'
import { fireText, startCliAlerts, type CliAlerts } from '../alerts/cli-alerts'
import { openCommandLog } from '../command-log'
import { cliDemo } from '../demo'
import { chooseCliFeed, UsageError, type CliFeedChoice } from '../feed-options'
import { EXIT, type CliIO } from '../io'
import { writeJson } from '../output'
import { untilAborted } from '../until-aborted'
import { alertLine } from '../watch-lines'

export const RUN_OPTIONS = { duration: { type: 'string' } } as const

type Values = Record<string, string | boolean | undefined>
type CommandLog = ReturnType<typeof openCommandLog>

/**
 * `tickdesk alerts run`: the folder's alerts with no window and no browser, for a machine that
 * stays on. It runs them as a full owner while it holds the folder's lease (every rule of its
 * service; stdout, the desktop notification and every webhook as targets) and stands by, saying
 * who runs them, while another process does (alert-host.ts).
 */
export async function runAlerts(values: Values, io: CliIO): Promise<number> {
  const duration = durationOf(values, io)
  if (typeof duration === 'string') return EXIT.usage
  const feed = await feedOf(values, io)
  if (typeof feed === 'number') return feed
  try {
    return await runFeed(feed, values, duration, io)
  } finally {
    await feed.demo?.close()
  }
}

async function runFeed(
  feed: CliFeedChoice,
  values: Values,
  duration: number | undefined,
  io: CliIO,
): Promise<number> {
  const dataDir =
    typeof values['data-dir'] === 'string' ? values['data-dir'] : resolveDataDir(io.env)
  const stores = openDataStores(await ensureDataDir(dataDir))
  const log = openCommandLog(io, dataDir)
  const say = (message: string): void => void io.stderr.write(`tickdesk alerts run: ${message}\n`)
  say(feed.said)
  const engine = new MarketEngine(feed.config, { logger: log.logger })
  const stop = new AbortController()
  const onSignal = (): void => stop.abort()
  // Ctrl-C during start-up (demo service, stores, rules) has already fired: no event will come.
  if (io.signal.aborted) stop.abort()
  else io.signal.addEventListener('abort', onSignal, { once: true })
  let running = false
  const cached = await stores.quotesOf(feed.config).load()
  const seen = new Map(cached.value.map((q) => [q.key, q.receivedAt]))
  let alerts: CliAlerts | null = null
  try {
    alerts = await startCliAlerts({
      stores,
      engine,
      config: feed.config,
      io,
      role: '`tickdesk alerts run`',
      firedBy: 'runner',
      stdout: stdoutTarget(Boolean(values.json), io, log),
      lastSeen: (key) => seen.get(key),
      say,
      statusCounts: () => running,
    })
    const exit = followStatus(engine, say, io, () => running, stop)
    running = true
    engine.start()
    await untilAborted(stop.signal, duration === undefined ? undefined : duration * 1000)
    running = false
    await alerts.stop()
    await engine.stop()
    return exit()
  } finally {
    io.signal.removeEventListener('abort', onSignal)
    await alerts?.stop()
    await log.close()
  }
}

function durationOf(values: Values, io: CliIO): number | undefined | string {
  if (values.duration === undefined) return undefined
  const duration = Number(values.duration)
  if (Number.isFinite(duration) && duration > 0) return duration
  io.stderr.write('tickdesk alerts run: --duration must be a positive number of seconds\n')
  return 'usage'
}

async function feedOf(values: Values, io: CliIO): Promise<CliFeedChoice | number> {
  try {
    return await chooseCliFeed(values, io.env, cliDemo)
  } catch (e) {
    if (!(e instanceof UsageError)) throw e
    io.stderr.write(`tickdesk alerts run: ${e.message}\n`)
    return EXIT.usage
  }
}

/** The feed's changes of state said on stderr; a refused key or account stops the runner. */
function followStatus(
  engine: MarketEngine,
  say: (message: string) => void,
  io: CliIO,
  running: () => boolean,
  stop: AbortController,
): () => number {
  let exitCode: number = EXIT.ok
  let lastState = ''
  engine.onStatus((s: FeedStatus) => {
    // Before start() and after stop() the engine reports "stopped": not a state of the feed.
    if (!running()) return
    if (s.state !== lastState) say(`feed ${s.state}${s.message ? `: ${s.message}` : ''}`)
    lastState = s.state
    const refused = accountStop('alerts run', s)
    if (refused === null) return
    exitCode = refused.exit
    io.stderr.write(refused.message)
    stop.abort()
  })
  return () => exitCode
}

/** stdout as a target: done once the pipe took the line (the write's callback). */
function stdoutTarget(json: boolean, io: CliIO, log: CommandLog): AlertTarget {
  return {
    name: 'stdout',
    deliver: (a) =>
      new Promise<void>((resolve, reject) => {
        log.logger.log('info', 'alert fired', { key: a.key, detail: a.message, fireId: a.id })
        const written = (e?: Error | null): void => (e ? reject(e) : resolve())
        if (json) writeJson(io.stdout, alertLine(a), written)
        else io.stdout.write(`${fireText(a, systemClock.now())}\n`, written)
      }),
  }
}
