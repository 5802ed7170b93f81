import { snoozeRule } from '../../app/alerts/alert-snooze'
import { isTickdeskError } from '../../core/errors'
import type { DataStores } from '../../core/persistence/stores'
import { MAX_SNOOZE_MINUTES } from '../../shared/alerts/alert'
import { describeCondition, snoozeText } from '../../shared/alerts/alert-describe'
import { ruleTarget } from '../../shared/alerts/alert-list'
import { EXIT, type CliIO } from '../io'
import { writeJson } from '../output'

export const SNOOZE_OPTIONS = {
  for: { type: 'string' },
  off: { type: 'boolean' },
} as const

/** "15m", "1h", "1h30m", "90m" as whole minutes (1 to 24 h), or why not in the trader's words. */
export function parseSnoozeFor(text: string): number | string {
  const m = /^\s*(?:(\d+)\s*h)?\s*(?:(\d+)\s*m(?:in)?)?\s*$/i.exec(text)
  if (m === null || (m[1] === undefined && m[2] === undefined))
    return `--for "${text.slice(0, 40)}": a snooze is minutes or hours, e.g. --for 15m, --for 1h or --for 1h30m`
  const minutes = Number(m[1] ?? 0) * 60 + Number(m[2] ?? 0)
  if (minutes < 1)
    return `--for ${text.trim()}: snooze for at least 1 minute (--off wakes a snoozed alert)`
  if (minutes > MAX_SNOOZE_MINUTES)
    return `--for ${text.trim()}: a snooze lasts at most ${MAX_SNOOZE_MINUTES / 60}h`
  return minutes
}

/**
 * `tickdesk alerts snooze <id> --for 15m | --off` and `alerts unsnooze <id>`: the rule changed by
 * the same snoozeRule the app's snoozeAlert uses, saved to the alerts file, which a running app
 * takes in within a few seconds (outside-edits.ts). Bad input stores nothing.
 */
export async function snooze(
  stores: DataStores,
  id: string,
  values: { for?: string | boolean; off?: string | boolean; json?: string | boolean },
  io: CliIO,
  now: number,
): Promise<number> {
  const wake = values.off === true
  if (wake === (values.for !== undefined)) {
    io.stderr.write(
      `tickdesk alerts: snooze takes either --for DURATION (e.g. --for 15m, --for 1h) or --off\n`,
    )
    return EXIT.usage
  }
  const minutes = wake ? 0 : parseSnoozeFor(String(values.for))
  if (typeof minutes === 'string') {
    io.stderr.write(`tickdesk alerts: ${minutes}\n`)
    return EXIT.usage
  }
  const loaded = await stores.alerts.load()
  if (loaded.problem) io.stderr.write(`tickdesk alerts: ${loaded.problem.message}\n`)
  let rules
  try {
    rules = snoozeRule(loaded.value.rules, id, minutes, now)
  } catch (e) {
    if (!isTickdeskError(e) || e.code !== 'NOT_FOUND') throw e
    io.stderr.write(
      `tickdesk alerts: no alert with id ${id.slice(0, 64)} (see tickdesk alerts list)\n`,
    )
    return EXIT.failure
  }
  await stores.alerts.save({ rules, states: loaded.value.states })
  const rule = rules.find((r) => r.id === id)
  if (rule === undefined) return EXIT.failure
  if (values.json) {
    writeJson(io.stdout, { type: 'alert-rule', ...rule })
    return EXIT.ok
  }
  const lists = (await stores.watchlists.load()).value.watchlists
  const what = `${rule.id} (${ruleTarget(rule, lists)} ${describeCondition(rule.condition)})`
  io.stdout.write(
    wake
      ? `Woke ${what}: no longer snoozed\n`
      : `Snoozed ${what}: ${snoozeText(rule, now) ?? ''}\n`,
  )
  return EXIT.ok
}
