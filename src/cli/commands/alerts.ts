import { buildAlertRule } from '../../app/alerts/alert-rules'
import { wantedSource } from '../../app/feed/feed-chooser'
import { isTickdeskError } from '../../core/errors'
import { ensureDataDir, resolveDataDir } from '../../core/persistence/data-dir'
import { openDataStores, type DataStores } from '../../core/persistence/stores'
import { MAX_MA_PERIOD, type AlertCondition, type AlertRule } from '../../shared/alerts/alert'
import { INTERVALS, IntervalSchema } from '../../shared/quote'
import { describeCondition } from '../../shared/alerts/alert-describe'
import { parentRuleId, ruleTarget } from '../../shared/alerts/alert-list'
import { volumeNote } from '../../shared/alerts/alert-volume'
import { HELP_OPTIONS, parseCommand } from '../command-args'
import { FEED_OPTIONS } from '../feed-options'
import { EXIT, type CliCommand, type CliIO } from '../io'
import { writeJson } from '../output'
import { listAlerts } from './alerts-list'
import { runAlerts, RUN_OPTIONS } from './alerts-run'
import { snooze, SNOOZE_OPTIONS } from './alerts-snooze'
import { undeliveredCommand } from './alerts-undelivered'
import { checkAlertSymbol } from './alerts-symbol-check'
import { webhookCommand, WEBHOOK_OPTIONS } from './alerts-webhook'
import { configuredService } from '../saved-service'

const HELP = `Usage:
  tickdesk alerts list [--json]
  tickdesk alerts add <market:SYMBOL> (--above P | --below P | --crosses P | --day-change PCT
                      | --move PCT --minutes N | --enter LOW:HIGH | --leave LOW:HIGH
                      | --volume N --minutes M | --spread NBP | --spread P
                      | --cross-sma N --interval I | --cross-ema N --interval I [--direction up|down])
                      [--repeat once|rearm] [--cooldown S] [--note TEXT] [--any-symbol]
  tickdesk alerts add --list <NAME|ID> (--move PCT --minutes N | --day-change PCT | --spread NBP) [...]
  tickdesk alerts remove <id>
  tickdesk alerts snooze <id> (--for DURATION | --off)
  tickdesk alerts unsnooze <id>
  tickdesk alerts undelivered (retry | drop) <fireId>
  tickdesk alerts webhook add <https://URL | - | --url-stdin> [--sign]
                      [--format json|slack|discord|telegram|ntfy] [--chat-id N]
  tickdesk alerts webhook list [--json]
  tickdesk alerts webhook test [id]
  tickdesk alerts webhook remove <id>
  tickdesk alerts run [--json] [--duration S] [feed options]

Price alerts, stored in the same data folder as the app (--data-dir DIR or TICKDESK_DATA_DIR).
The app, \`tickdesk watch\` and \`tickdesk alerts run\` fire them, each exactly once.

  run     a headless runner for a machine that stays on: evaluates every enabled rule, prints each
          fire (NDJSON with --json), raises a desktop notification where notify-send exists and
          POSTs it to every webhook (JSON body with the fire id; retried with back-off).
  webhook where fired alerts are POSTed; \`webhook list\` (and \`alerts list\`) shows each one's
          host and failure count, or that it is disabled and why (plain http to another host).
          The URL is a secret: \`-\` or --url-stdin reads it from stdin (out of shell history).
          https only (http to 127.0.0.1/localhost); --sign adds an HMAC-SHA256 signature header
          with a secret kept in the OS keychain (SECURITY.md shows a receiver's check).
          --format: the body each service expects (Slack, Discord, ntfy: the URL they give you;
          telegram: the bot URL https://api.telegram.org/bot<TOKEN> and --chat-id; it posts to
          URL/sendMessage). \`webhook test\` sends a marked test and prints the receiver's answer.
  snooze  quiet for DURATION (15m, 1h, 1h30m; at most 24h), then armed afresh: a rule that fired
          fires again if its condition still holds. A running app takes it in within seconds.
  list    each rule's state (snoozed until when, waiting for bars, triggered), whether quiet
          hours are in force now, each webhook's failure count, and each fire a webhook gave up on.
  undelivered  a fire a webhook gave up on stays owed (tried again at every start): retry sends
          it now (once, marked replayed); drop stops owing it, with a line in the alert history.
          Only while no other process runs the alerts (the app's alerts panel does both there).

Options:
  --json             list/add print one JSON line per rule; run prints NDJSON alert lines
  --any-symbol       add: skip the check of a symbol outside the catalogue (one quote call: a
                     symbol the service refuses is not added)
  --spread 12bp      add: fires when ask − bid reaches 12 bps of the mid (a plain number: in
                     price, e.g. --spread 0.5); only where the service sends a bid and an ask
  --list NAME        add: one alert for every symbol on that watchlist (each fires on its own,
                     once per arming; symbols added to the list later are watched too); a
                     spread on a list is in bp (--spread 15bp: any symbol whose spread widens)
${HELP_OPTIONS}
`

const OPTIONS = {
  json: { type: 'boolean' },
  above: { type: 'string' },
  below: { type: 'string' },
  crosses: { type: 'string' },
  'day-change': { type: 'string' },
  move: { type: 'string' },
  minutes: { type: 'string' },
  volume: { type: 'string' },
  spread: { type: 'string' },
  'cross-sma': { type: 'string' },
  'cross-ema': { type: 'string' },
  interval: { type: 'string' },
  direction: { type: 'string' },
  enter: { type: 'string' },
  leave: { type: 'string' },
  repeat: { type: 'string' },
  cooldown: { type: 'string' },
  note: { type: 'string' },
  'any-symbol': { type: 'boolean' },
  list: { type: 'string' },
  ...FEED_OPTIONS,
  ...RUN_OPTIONS,
  ...SNOOZE_OPTIONS,
  ...WEBHOOK_OPTIONS,
} as const

type Values = Record<string, string | boolean | undefined>

const CONDITION_FLAGS = [
  'above',
  'below',
  'crosses',
  'day-change',
  'move',
  'enter',
  'leave',
  'volume',
  'cross-sma',
  'cross-ema',
  'spread',
]

function conditionFrom(v: Values): AlertCondition | string {
  const num = (name: string): number | null => {
    const raw = v[name]
    if (typeof raw !== 'string') return null
    const n = raw.trim() === '' ? NaN : Number(raw)
    return Number.isFinite(n) ? n : NaN
  }
  const given = CONDITION_FLAGS.filter((n) => v[n] !== undefined)
  if (given.length !== 1)
    return `give exactly one of ${CONDITION_FLAGS.map((n) => `--${n}`).join(', ')}`
  const name = given[0] as string
  if (name === 'cross-sma' || name === 'cross-ema') {
    const period = num(name)
    if (period !== null && period > MAX_MA_PERIOD)
      return `--${name} ${period}: the moving-average period must be at most ${MAX_MA_PERIOD} bars`
    if (period === null || Number.isNaN(period) || !Number.isInteger(period) || period < 1)
      return `--${name} needs the moving-average period, a whole number of bars of at least 1, e.g. --${name} 20`
    const interval = IntervalSchema.safeParse(v.interval ?? '')
    if (!interval.success)
      return `--${name} needs --interval, one of ${INTERVALS.join(', ')} (e.g. --interval 15m)`
    const direction = v.direction ?? 'any'
    if (direction !== 'up' && direction !== 'down' && direction !== 'any')
      return '--direction is up, down or any'
    return {
      kind: 'maCross',
      ma: name === 'cross-sma' ? 'sma' : 'ema',
      period,
      interval: interval.data,
      direction,
    }
  }
  if (name === 'enter' || name === 'leave') {
    const [low, high, extra] = String(v[name])
      .split(':')
      .map((p) => (p.trim() === '' ? NaN : Number(p)))
    if (extra !== undefined || !Number.isFinite(low) || !Number.isFinite(high))
      return `--${name} needs two numbers LOW:HIGH, e.g. --${name} 100:110`
    if ((low as number) >= (high as number))
      return `--${name} ${String(v[name])}: the lower bound must come first and be below the upper bound`
    return {
      kind: 'channel',
      low: low as number,
      high: high as number,
      on: name === 'enter' ? 'enter' : 'exit',
    }
  }
  if (name === 'spread') return spreadFrom(String(v.spread))
  const value = num(name)
  if (value === null || Number.isNaN(value)) return `--${name} needs a number, e.g. --${name} 100`
  if (name === 'above' || name === 'below' || name === 'crosses')
    return { kind: name, price: value }
  if (name === 'day-change') return { kind: 'dayChangePct', pct: value }
  const minutes = num('minutes')
  if (minutes === null || !Number.isInteger(minutes) || minutes < 1 || minutes > 1440)
    return `--${name} needs --minutes N (a whole number from 1 to 1440)`
  if (name === 'volume') {
    if (value <= 0) return '--volume needs a positive amount'
    return { kind: 'volume', amount: value, minutes }
  }
  if (value <= 0) return '--move needs a positive percent'
  return { kind: 'movePct', pct: value, minutes }
}

/** "12bp" (or "12bps"): basis points of the mid; a plain number: the spread in price. */
function spreadFrom(raw: string): AlertCondition | string {
  const m = /^\s*([0-9]*\.?[0-9]+(?:e[-+]?\d+)?)\s*(bps?)?\s*$/i.exec(raw)
  const above = m === null ? NaN : Number(m[1])
  if (m === null || !Number.isFinite(above) || above <= 0)
    return `--spread needs a spread above zero: 12bp in bps of the mid, or a price such as 0.5`
  return { kind: 'spread', above, unit: m[2] === undefined ? 'price' : 'bps' }
}

export const run: CliCommand = async (args, io) => {
  const parsed = parseCommand('alerts', args, OPTIONS, HELP, io)
  if ('exit' in parsed) return parsed.exit
  const { values, positionals } = parsed
  const [action, arg] = positionals
  if (action === 'run' && positionals.length === 1) return runAlerts(values, io)
  const stores = openDataStores(await ensureDataDir(values['data-dir'] ?? resolveDataDir(io.env)))
  if (action === 'list' && positionals.length === 1)
    return listAlerts(stores, Boolean(values.json), io, Date.now())
  if (action === 'snooze' && arg && positionals.length === 2)
    return snooze(stores, arg, values, io, Date.now())
  if (action === 'unsnooze' && arg && positionals.length === 2)
    return snooze(stores, arg, { ...values, off: true }, io, Date.now())
  if (action === 'add' && arg && positionals.length === 2 && values.list === undefined)
    return add(stores, arg, values, io)
  if (action === 'add' && typeof values.list === 'string' && positionals.length === 1)
    return add(stores, null, values, io)
  if (action === 'remove' && arg && positionals.length === 2) return remove(stores, arg, io)
  const [, verb, fireId] = positionals
  if (
    action === 'undelivered' &&
    (verb === 'retry' || verb === 'drop') &&
    fireId &&
    !positionals[3]
  )
    return undeliveredCommand(stores, verb, fireId, io)
  if (action === 'webhook') {
    const done = await webhookCommand(stores, positionals, values, io)
    if (done !== null) return done
  }
  io.stderr.write(HELP)
  return EXIT.usage
}

async function add(
  stores: DataStores,
  arg: string | null,
  values: Values,
  io: CliIO,
): Promise<number> {
  const condition = conditionFrom(values)
  if (typeof condition === 'string') {
    io.stderr.write(`tickdesk alerts: ${condition}\n`)
    return EXIT.usage
  }
  const lists = (await stores.watchlists.load()).value.watchlists
  let rule: AlertRule
  try {
    rule = buildAlertRule(
      {
        ...(arg === null ? { listId: String(values.list) } : { key: arg }),
        condition,
        ...(values.repeat !== undefined ? { repeat: values.repeat } : {}),
        ...(values.cooldown !== undefined ? { cooldownSec: Number(values.cooldown) } : {}),
        ...(values.note !== undefined ? { note: values.note } : {}),
      },
      Date.now(),
      { lists },
    )
    const base = typeof values['base-url'] === 'string' ? values['base-url'] : undefined
    rule = { ...rule, service: await configuredService(base, stores.dir, io.env) }
  } catch (e) {
    if (!isTickdeskError(e)) throw e
    io.stderr.write(`tickdesk alerts: ${e.message}\n`)
    return EXIT.usage
  }
  if (rule.listId === undefined && !values['any-symbol']) {
    const refused = await checkAlertSymbol(stores, rule.key, values, io, HELP)
    if (refused !== null) return refused
  }
  if (rule.condition.kind === 'volume') {
    // The last quote this data folder saw says whether the service sends the symbol's volume.
    const settings = (await stores.settings.load()).value
    const cache = stores.quotesOf(wantedSource(io.env, settings))
    const cached = (await cache.load()).value.find((q) => q.key === rule.key)
    const note = volumeNote(rule.key, cached?.last == null ? undefined : cached.volume)
    if (note !== null && cached?.last != null) {
      io.stderr.write(`tickdesk alerts: the alert was not added: ${note}\n`)
      return EXIT.usage
    }
    if (note !== null) io.stderr.write(`tickdesk alerts: note: ${note}\n`)
  }
  const loaded = await stores.alerts.load()
  if (loaded.problem) io.stderr.write(`tickdesk alerts: ${loaded.problem.message}\n`)
  const { rules, states } = loaded.value
  await stores.alerts.save({ rules: [...rules, rule], states })
  if (values.json) writeJson(io.stdout, { type: 'alert-rule', ...rule })
  else
    io.stdout.write(
      `Added ${rule.id}: ${ruleTarget(rule, lists)} ${describeCondition(rule.condition)}\n`,
    )
  return EXIT.ok
}

async function remove(stores: DataStores, id: string, io: CliIO): Promise<number> {
  const { rules, states } = (await stores.alerts.load()).value
  if (!rules.some((r) => r.id === id)) {
    io.stderr.write(`tickdesk alerts: no alert with id ${id}\n`)
    return EXIT.failure
  }
  await stores.alerts.save({
    rules: rules.filter((r) => r.id !== id),
    states: states.filter((s) => parentRuleId(s.ruleId) !== id),
  })
  io.stdout.write(`Removed ${id}\n`)
  return EXIT.ok
}
