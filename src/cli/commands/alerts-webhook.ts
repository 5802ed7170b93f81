import { randomUUID } from 'node:crypto'
import type { DataStores } from '../../core/persistence/stores'
import { systemClock } from '../../core/clock'
import {
  maskedWebhookUrl,
  WEBHOOK_FORMATS,
  WebhookSchema,
  type Webhook,
  type WebhookFormat,
} from '../../shared/alerts/alert'
import { webhookHealth } from '../../shared/alerts/alert-describe'
import { testWebhook } from '../../app/webhooks/webhook-test'
import { keychainProfile } from '../../app/secrets/secret-store'
import { keychainWebhookSecrets } from '../../app/secrets/webhook-secrets'
import { storedWebhookView, webhookUrlProblem } from '../../app/webhooks/webhook-url-policy'
import { newSigningSecret } from '../../app/webhooks/webhook-signing'
import { EXIT, type CliIO } from '../io'
import { writeJson } from '../output'

/**
 * `tickdesk alerts webhook add|list|test|remove`. A webhook URL is a bearer secret (Slack's and Discord's
 * path tokens, `?token=`): it is printed masked, and `--url-stdin` (or `-` for the URL) reads it
 * from stdin so it stays out of the shell's history and the process list.
 */
export const WEBHOOK_OPTIONS = {
  'url-stdin': { type: 'boolean' },
  sign: { type: 'boolean' },
  format: { type: 'string' },
  'chat-id': { type: 'string' },
} as const

/**
 * Said when a webhook URL came as an argument: the URL is a bearer secret (a Slack path, an ntfy
 * topic), and a command line is in the shell's history and readable by every local user while
 * the command runs. The webhook is still added: the trader chose; they are told how not to.
 */
export const ON_COMMAND_LINE =
  'tickdesk alerts: warning: a webhook URL on the command line is saved in your shell history and visible to other users of this computer while the command runs; give it on stdin instead (`-` or --url-stdin), and replace this one if others can read them.\n'

/** A URL is one line; anything longer than this on stdin is not one. */
const MAX_URL_INPUT = 4096

type Values = Record<string, string | boolean | undefined>

export async function webhookCommand(
  stores: DataStores,
  positionals: string[],
  values: Values,
  io: CliIO,
): Promise<number | null> {
  const [, sub, arg] = positionals
  const fromStdin = values['url-stdin'] === true || arg === '-'
  if (sub === 'add' && positionals.length === (fromStdin && arg !== '-' ? 2 : 3)) {
    const url = fromStdin ? await readUrl(io) : arg
    if (url === null) {
      io.stderr.write('tickdesk alerts: no webhook URL on stdin (one line, http(s)://...)\n')
      return EXIT.usage
    }
    const kind = formatOf(values)
    if (typeof kind !== 'object') {
      io.stderr.write(`tickdesk alerts: ${kind}\n`)
      return EXIT.usage
    }
    if (!fromStdin) io.stderr.write(ON_COMMAND_LINE)
    return addWebhook(stores, url ?? '', { signed: values.sign === true, ...kind }, io)
  }
  if (sub === 'list' && positionals.length === 2)
    return listWebhooks(stores, values.json === true, io)
  if (sub === 'test' && positionals.length <= 3) return testWebhooks(stores, arg ?? null, io)
  if (sub === 'remove' && arg && positionals.length === 3) return removeWebhook(stores, arg, io)
  return null
}

/** The first line of stdin, bounded; null when there is none. */
async function readUrl(io: CliIO): Promise<string | null> {
  if (!io.stdin) return null
  let text = ''
  for await (const chunk of io.stdin) {
    text += String(chunk)
    if (text.length > MAX_URL_INPUT) break
  }
  const line = text.slice(0, MAX_URL_INPUT).split(/\r?\n/)[0]?.trim() ?? ''
  return line === '' ? null : line
}

/** --format and --chat-id, checked: telegram needs a chat id, nothing else takes one. */
function formatOf(values: Values): { format?: WebhookFormat; chatId?: string } | string {
  const format = values.format ?? 'json'
  if (typeof format !== 'string' || !(WEBHOOK_FORMATS as readonly string[]).includes(format))
    return `--format must be one of ${WEBHOOK_FORMATS.join(', ')}`
  const chatId = values['chat-id']
  if (format === 'telegram') {
    if (typeof chatId !== 'string' || !/^(-?\d{1,20}|@\w{4,64})$/.test(chatId))
      return '--format telegram needs --chat-id N (the chat’s number, or @channelname)'
    return { format, chatId }
  }
  if (chatId !== undefined) return '--chat-id is for --format telegram only'
  return format === 'json' ? {} : { format: format as WebhookFormat }
}

async function addWebhook(
  stores: DataStores,
  url: string,
  kind: { signed: boolean; format?: WebhookFormat; chatId?: string },
  io: CliIO,
): Promise<number> {
  const sign = kind.signed
  const hook = WebhookSchema.safeParse({
    id: randomUUID().slice(0, 8),
    url,
    addedAt: Date.now(),
    ...kind,
  })
  const problem = hook.success ? webhookUrlProblem(url) : hook.error.issues[0]?.message
  if (!hook.success || problem) {
    io.stderr.write(`tickdesk alerts: webhook URL refused: ${problem}\n`)
    return EXIT.usage
  }
  const hooks = (await stores.webhooks.load()).value
  if (hooks.some((h) => h.url === url)) {
    io.stderr.write(`tickdesk alerts: that webhook is already there\n`)
    return EXIT.usage
  }
  // The secret is in the keychain before the webhook exists: no signed webhook without one.
  const secret = sign ? newSigningSecret() : null
  if (secret !== null) {
    try {
      await keychainWebhookSecrets({ profile: keychainProfile(io.env) }).set(hook.data.id, secret)
    } catch (e) {
      io.stderr.write(`tickdesk alerts: ${(e as Error).message}; the webhook was not added\n`)
      return EXIT.failure
    }
  }
  await stores.webhooks.save([...hooks, hook.data])
  io.stdout.write(
    `Added webhook ${hook.data.id} (${hook.data.format ?? 'json'}): fired alerts are POSTed to ${maskedWebhookUrl(url)}\n`,
  )
  if (secret !== null)
    io.stdout.write(
      `Signing secret (shown once; the receiver checks X-Tickdesk-Signature with it, see SECURITY.md): ${secret}\n`,
    )
  return EXIT.ok
}

async function removeWebhook(stores: DataStores, id: string, io: CliIO): Promise<number> {
  const hooks = (await stores.webhooks.load()).value
  if (!hooks.some((h) => h.id === id)) {
    io.stderr.write(`tickdesk alerts: no webhook with id ${id}\n`)
    return EXIT.failure
  }
  await stores.webhooks.save(hooks.filter((h) => h.id !== id))
  if (hooks.some((h) => h.id === id && h.signed))
    await keychainWebhookSecrets({ profile: keychainProfile(io.env) })
      .clear(id)
      .catch(() => undefined)
  io.stdout.write(`Removed webhook ${id}\n`)
  return EXIT.ok
}

/**
 * `webhook list`: each webhook's id, kind, masked URL and health; a disabled one says so and
 * why (webhook-url-policy.ts). --json: one line per webhook, the view the app's page gets.
 */
export async function listWebhooks(stores: DataStores, json: boolean, io: CliIO): Promise<number> {
  const loaded = await stores.webhooks.load()
  if (loaded.problem) io.stderr.write(`tickdesk alerts: ${loaded.problem.message}\n`)
  const hooks = loaded.value
  if (hooks.length === 0 && !json)
    io.stdout.write('No webhooks (tickdesk alerts webhook add URL).\n')
  for (const hook of hooks) {
    const view = storedWebhookView(hook)
    if (json) writeJson(io.stdout, { type: 'webhook', ...view })
    else
      io.stdout.write(
        `webhook ${hook.id}  ${view.kind}  ${maskedWebhookUrl(hook.url)}  ${webhookHealth(view)}\n`,
      )
  }
  return EXIT.ok
}

/**
 * `webhook test [ID]`: a marked test message to that webhook (or to each), the receiver's status
 * and the start of its answer. Exit 0 only when every receiver tested answered 2xx.
 */
async function testWebhooks(stores: DataStores, id: string | null, io: CliIO): Promise<number> {
  const hooks = (await stores.webhooks.load()).value
  const chosen: Webhook[] = id === null ? hooks : hooks.filter((h) => h.id === id)
  if (chosen.length === 0) {
    io.stderr.write(
      id === null
        ? 'tickdesk alerts: no webhooks yet (tickdesk alerts webhook add URL)\n'
        : `tickdesk alerts: no webhook with id ${id}\n`,
    )
    return EXIT.failure
  }
  const secrets = keychainWebhookSecrets({ profile: keychainProfile(io.env) })
  let allOk = true
  for (const hook of chosen) {
    const view = storedWebhookView(hook)
    const result = await testWebhook(hook, { clock: systemClock, secrets })
    allOk &&= result.ok
    const status = result.status === null ? 'no answer' : `HTTP ${result.status}`
    io.stdout.write(
      `webhook ${hook.id} (${view.kind} ${view.host}): ${status}${result.answer ? ` — ${result.answer}` : ''}\n`,
    )
  }
  return allOk ? EXIT.ok : EXIT.failure
}
