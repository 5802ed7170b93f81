import { MaTracker } from '../../core/alerts/alert-ma'
import { CandleBuilder } from '../../core/bars/candle-builder'
import { BarStore } from '../../core/persistence/bar-store'
import type { DataStores } from '../../core/persistence/stores'
import { barsDir } from '../../app/feed/bar-keeper'
import { wantedSource } from '../../app/feed/feed-chooser'
import type { FeedSource } from '../../core/persistence/source-id'
import { maskedWebhookUrl, type AlertRule, type AlertRuleState } from '../../shared/alerts/alert'
import {
  PRICE_KINDS,
  WATCHES_MID,
  describeCondition,
  ruleStatusText,
  snoozeText,
  webhookHealth,
} from '../../shared/alerts/alert-describe'
import { listRuleCounts, ruleTarget } from '../../shared/alerts/alert-list'
import { storedWebhookView } from '../../app/webhooks/webhook-url-policy'
import { inQuietHours, quietHoursText } from '../../shared/alerts/quiet-hours'
import { EXIT, type CliIO } from '../io'
import { writeJson } from '../output'
import { writeUndelivered } from './alerts-undelivered'
import { LEASE_TTL_MS } from '../../core/persistence/alert-lease'
import { readLease, type Lease } from '../../core/persistence/lease-file'
import { holderSentence } from '../../shared/alerts/alert-owner'

/**
 * `tickdesk alerts list`: each rule with its state as the last host that evaluated it saved it
 * (snoozed until when, waiting for bars, triggered), whether quiet hours are in force now, and
 * each webhook's failure count. --json: one `quiet-hours` line, then the rules and webhooks.
 */
export async function listAlerts(
  stores: DataStores,
  json: boolean,
  io: CliIO,
  now: number,
): Promise<number> {
  const loaded = await stores.alerts.load()
  if (loaded.problem) io.stderr.write(`tickdesk alerts: ${loaded.problem.message}\n`)
  const hooks = (await stores.webhooks.load()).value
  const lists = (await stores.watchlists.load()).value.watchlists
  const settings = (await stores.settings.load()).value
  const quiet = settings.quietHours
  const { rules } = loaded.value
  // The bars of the source a host would start on now: the configured service, or the demo.
  const source = wantedSource(io.env, settings)
  const bars = new BarStore(barsDir(stores.dir, source))
  // The owner's file; a folder no owner has saved since states had a file of their own: alerts.json.
  const saved = (await stores.alertStates.peek()) ?? loaded.value.states
  const states = await withWarmup(bars, rules, saved, now)
  const owner = ownerOf(stores.dir)
  const mids = await midPriced(stores, source)
  const watches = (r: AlertRule): 'last' | 'mid' => watchedFigure(r, states, mids)
  if (json) {
    writeJson(io.stdout, { type: 'quiet-hours', ...quiet, inForce: inQuietHours(quiet, now) })
    if (owner.holder !== null) writeJson(io.stdout, { type: 'alert-owner', ...owner })
    for (const r of rules) {
      const state = states.find((s) => s.ruleId === r.id) ?? null
      const status = statusOf(r, states, now)
      writeJson(io.stdout, { type: 'alert-rule', ...r, state, status, watches: watches(r) })
    }
    for (const w of hooks) writeJson(io.stdout, { type: 'webhook', ...storedWebhookView(w) })
    writeUndelivered(stores.dir, true, io, now)
    return EXIT.ok
  }
  io.stdout.write(`${quietHoursText(quiet, now)}\n`)
  if (owner.holder !== null)
    io.stdout.write(`${ownerText({ holder: owner.holder, released: owner.released }, now)}\n`)
  if (rules.length === 0) io.stdout.write('No alerts.\n')
  for (const r of rules)
    io.stdout.write(
      `${r.id}  ${ruleTarget(r, lists)}  ${describeCondition(r.condition, now)}${watches(r) === 'mid' ? ` (${WATCHES_MID})` : ''}  ${r.repeat}  ${statusOf(r, states, now)}\n`,
    )
  for (const w of hooks) {
    const view = storedWebhookView(w)
    io.stdout.write(
      `webhook ${w.id}  ${view.kind}  ${maskedWebhookUrl(w.url)}  ${webhookHealth(view)}\n`,
    )
  }
  writeUndelivered(stores.dir, false, io, now)
  return EXIT.ok
}

/**
 * Which figure a rule's price is: as the host that evaluated it last saw it (its state), else as
 * the quote cache of the source a host would start on holds the symbol (a rule just added).
 */
function watchedFigure(
  rule: AlertRule,
  states: readonly AlertRuleState[],
  mids: ReadonlySet<string>,
): 'last' | 'mid' {
  if (!PRICE_KINDS.has(rule.condition.kind)) return 'last'
  const state = states.find((s) => s.ruleId === rule.id)
  if (state !== undefined && state.lastPrice !== null) return state.watches ?? 'last'
  return mids.has(rule.key) ? 'mid' : 'last'
}

/** The symbols whose cached price is the mid of bid and ask. */
async function midPriced(stores: DataStores, source: FeedSource): Promise<Set<string>> {
  const cached = (await stores.quotesOf(source).load()).value
  return new Set(cached.filter((q) => q.lastIsMid === true).map((q) => q.key))
}

/** Who the lease names (a one-shot look: whether it still renews it is not watched here). */
function ownerOf(dir: string): { holder: Lease | null; released: boolean } {
  let text
  try {
    text = readLease(dir)
  } catch {
    return { holder: null, released: false }
  }
  if (text.kind !== 'lease') return { holder: null, released: false }
  return { holder: text.lease, released: text.lease.released === true }
}

function ownerText(owner: { holder: Lease; released: boolean }, now: number): string {
  if (owner.released) return 'No process runs the alerts now (the last one stopped).'
  const ttl = LEASE_TTL_MS / 1000
  return `${capital(holderSentence(owner.holder, now))}, by its lease (renewed each second while it runs; one not renewed for ${ttl} s is taken over).`
}

function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1)
}

/** A rule's state in the panel's words; a rule no host has evaluated yet is as it starts. */
function statusOf(rule: AlertRule, states: readonly AlertRuleState[], now: number): string {
  if (!rule.enabled) return 'disabled'
  const snoozed = snoozeText(rule, now)
  if (snoozed !== null) return snoozed
  if (rule.listId !== undefined) {
    const counts = listRuleCounts(rule.id, states)
    return counts.symbols === 0 ? 'armed' : `${counts.triggered} of ${counts.symbols} fired`
  }
  const state = states.find((s) => s.ruleId === rule.id)
  if (state === undefined) return 'armed'
  // A snooze that ran out while no host ran: armed again, as the engine will say.
  return ruleStatusText(state.status === 'snoozed' ? { ...state, status: 'armed' } : state)
}

/**
 * A moving-average rule no host has evaluated yet (just added, nothing running) has no word on
 * its bars in the file: it is judged on the bars this data folder holds, as a host starting now
 * would first see them, rather than shown armed.
 */
async function withWarmup(
  bars: BarStore,
  rules: readonly AlertRule[],
  states: AlertRuleState[],
  now: number,
): Promise<AlertRuleState[]> {
  const unjudged = rules.filter(
    (r) =>
      r.condition.kind === 'maCross' &&
      r.listId === undefined &&
      states.find((s) => s.ruleId === r.id)?.waitingBars === undefined,
  )
  if (unjudged.length === 0) return states
  const candles = new CandleBuilder()
  candles.import((await bars.load()).series)
  const barsOf = candles.bars.bind(candles)
  const out = states.slice()
  for (const rule of unjudged) {
    const c = rule.condition
    if (c.kind !== 'maCross') continue
    const warm = new MaTracker(rule.key, c.ma, c.period, c.interval).warmup(barsOf, now)
    const known = out.find((s) => s.ruleId === rule.id)
    const state: AlertRuleState = known ?? {
      ruleId: rule.id,
      status: 'armed',
      lastFiredAt: null,
      lastPrice: null,
      lastSeenAt: null,
    }
    const judged = { ...state, waitingBars: warm.have < warm.need ? warm : null }
    if (known) out[out.indexOf(known)] = judged
    else out.push(judged)
  }
  return out
}
