import { randomUUID } from 'node:crypto'
import type { DataStores } from '../../core/persistence/stores'
import { maskedWebhookUrl, WebhookSchema } from '../../shared/alert'
import { keychainProfile } from '../../app/secrets/secret-store'
import { keychainWebhookSecrets } from '../../app/secrets/webhook-secrets'
import { webhookUrlProblem } from '../../app/webhook-url-policy'
import { newSigningSecret } from '../../app/webhook-signing'
import { EXIT, type CliIO } from '../io'

/**
 * `tickdesk alerts webhook add|remove`. A webhook URL is a bearer secret (Slack's and Discord's
 * path tokens, `?token=`): it is printed masked, and `--url-stdin` (or `-` for the URL) reads it
 * from stdin so it stays out of the shell's history and the process list.
 */
export const WEBHOOK_OPTIONS = {
  'url-stdin': { type: 'boolean' },
  sign: { type: 'boolean' },
} as const

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
    return addWebhook(stores, url ?? '', values.sign === true, io)
  }
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

async function addWebhook(
  stores: DataStores,
  url: string,
  sign: boolean,
  io: CliIO,
): Promise<number> {
  const hook = WebhookSchema.safeParse({
    id: randomUUID().slice(0, 8),
    url,
    addedAt: Date.now(),
    signed: sign,
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
    `Added webhook ${hook.data.id}: fired alerts are POSTed to ${maskedWebhookUrl(url)}\n`,
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
