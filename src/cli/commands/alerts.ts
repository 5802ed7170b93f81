import { randomUUID } from 'node:crypto'
import { ensureDataDir, resolveDataDir } from '../../core/persistence/data-dir'
import { openDataStores } from '../../core/persistence/stores'
import { AlertRuleInputSchema, type AlertCondition, type AlertRule } from '../../shared/alert'
import { parseSymbolKey, symbolKey } from '../../shared/market'
import { parseCommand } from '../command-args'
import { EXIT, type CliCommand } from '../io'
import { writeJson } from '../output'

const HELP = `Usage:
  tickdesk alerts list [--json]
  tickdesk alerts add <market:SYMBOL> (--above P | --below P | --crosses P | --day-change PCT | --move PCT --minutes N)
                      [--repeat once|rearm] [--cooldown S] [--note TEXT]
  tickdesk alerts remove <id>

Price alerts, stored in the same data folder as the app (--data-dir DIR or TICKDESK_DATA_DIR);
\`tickdesk watch\` and the app fire them.

Options:
  --json             list/add print one JSON line per rule
  -h, --help         show this help
  --version          print the version
`

function conditionFrom(v: Record<string, string | boolean | undefined>): AlertCondition | string {
  const num = (name: string): number | null => {
    const raw = v[name]
    if (typeof raw !== 'string') return null
    const n = Number(raw)
    return Number.isFinite(n) ? n : NaN
  }
  const given = ['above', 'below', 'crosses', 'day-change', 'move'].filter(
    (n) => v[n] !== undefined,
  )
  if (given.length !== 1)
    return 'give exactly one of --above, --below, --crosses, --day-change, --move'
  const name = given[0] as string
  const value = num(name)
  if (value === null || Number.isNaN(value)) return `--${name} needs a number`
  if (name === 'above' || name === 'below' || name === 'crosses')
    return { kind: name, price: value }
  if (name === 'day-change') return { kind: 'dayChangePct', pct: value }
  const minutes = num('minutes')
  if (minutes === null || !Number.isInteger(minutes) || minutes < 1)
    return '--move needs --minutes N (a whole number)'
  if (value <= 0) return '--move needs a positive percent'
  return { kind: 'movePct', pct: value, minutes }
}

export const run: CliCommand = async (args, io) => {
  const parsed = parseCommand(
    'alerts',
    args,
    {
      json: { type: 'boolean' },
      above: { type: 'string' },
      below: { type: 'string' },
      crosses: { type: 'string' },
      'day-change': { type: 'string' },
      move: { type: 'string' },
      minutes: { type: 'string' },
      repeat: { type: 'string' },
      cooldown: { type: 'string' },
      note: { type: 'string' },
      'data-dir': { type: 'string' },
    },
    HELP,
    io,
  )
  if ('exit' in parsed) return parsed.exit
  const { values, positionals } = parsed
  const [action, arg] = positionals
  const stores = openDataStores(await ensureDataDir(values['data-dir'] ?? resolveDataDir(io.env)))
  const loaded = await stores.alerts.load()
  if (loaded.problem) io.stderr.write(`tickdesk alerts: ${loaded.problem.message}\n`)
  const { rules, states } = loaded.value

  if (action === 'list' && positionals.length === 1) {
    if (values.json) for (const r of rules) writeJson(io.stdout, { type: 'alert-rule', ...r })
    else if (rules.length === 0) io.stdout.write('No alerts.\n')
    else
      for (const r of rules)
        io.stdout.write(
          `${r.id}  ${r.key}  ${describe(r.condition)}  ${r.repeat}${r.enabled ? '' : '  (disabled)'}\n`,
        )
    return EXIT.ok
  }
  if (action === 'add' && arg && positionals.length === 2) {
    const ref = parseSymbolKey(arg)
    if (!ref) {
      io.stderr.write(`tickdesk alerts: "${arg}" is not market:SYMBOL\n`)
      return EXIT.usage
    }
    const condition = conditionFrom(values)
    if (typeof condition === 'string') {
      io.stderr.write(`tickdesk alerts: ${condition}\n`)
      return EXIT.usage
    }
    const input = AlertRuleInputSchema.safeParse({
      key: symbolKey(ref.market, ref.symbol),
      condition,
      ...(values.repeat !== undefined ? { repeat: values.repeat } : {}),
      ...(values.cooldown !== undefined ? { cooldownSec: Number(values.cooldown) } : {}),
      ...(values.note !== undefined ? { note: values.note } : {}),
    })
    if (!input.success) {
      io.stderr.write(
        `tickdesk alerts: ${input.error.issues[0]?.path.join('.')}: ${input.error.issues[0]?.message}\n`,
      )
      return EXIT.usage
    }
    const rule: AlertRule = {
      ...input.data,
      id: randomUUID(),
      createdAt: Date.now(),
      enabled: true,
    }
    await stores.alerts.save({ rules: [...rules, rule], states })
    if (values.json) writeJson(io.stdout, { type: 'alert-rule', ...rule })
    else io.stdout.write(`Added ${rule.id}: ${rule.key} ${describe(rule.condition)}\n`)
    return EXIT.ok
  }
  if (action === 'remove' && arg && positionals.length === 2) {
    if (!rules.some((r) => r.id === arg)) {
      io.stderr.write(`tickdesk alerts: no alert with id ${arg}\n`)
      return EXIT.failure
    }
    await stores.alerts.save({
      rules: rules.filter((r) => r.id !== arg),
      states: states.filter((s) => s.ruleId !== arg),
    })
    io.stdout.write(`Removed ${arg}\n`)
    return EXIT.ok
  }
  io.stderr.write(HELP)
  return EXIT.usage
}

function describe(c: AlertCondition): string {
  switch (c.kind) {
    case 'above':
      return `above ${c.price}`
    case 'below':
      return `below ${c.price}`
    case 'crosses':
      return `crosses ${c.price}`
    case 'dayChangePct':
      return `day change ${c.pct}%`
    case 'movePct':
      return `moves ${c.pct}% within ${c.minutes} min`
  }
}
