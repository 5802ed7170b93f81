import { TickdeskError } from '../../core/errors'
import { registerSecret } from '../../core/log'
import { Keychain, loadKeytar, type KeytarImporter } from './keychain'

/**
 * Webhook signing secrets (webhook-signing.ts), one keychain entry per webhook (service
 * "tickdesk", account "<profile>:webhook:<id>"). Unlike the API key there is no memory fallback:
 * a secret the runner and the app cannot read back after a restart would sign nothing, so
 * where no keychain answers, signing is refused when the webhook is added, in words.
 */
export interface WebhookSecrets {
  get(webhookId: string): Promise<string | null>
  set(webhookId: string, secret: string): Promise<void>
  clear(webhookId: string): Promise<void>
}

export async function openWebhookSecrets(opts: {
  profile: string
  importKeytar?: KeytarImporter
  timeoutMs?: number
}): Promise<WebhookSecrets | { unavailable: string }> {
  const loaded = await loadKeytar(opts.importKeytar)
  if (loaded.keytar === null) return { unavailable: loaded.reason }
  const keytar = loaded.keytar
  const entry = (id: string): Keychain =>
    new Keychain(keytar, {
      account: `${opts.profile}:webhook:${id}`,
      ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
    })
  try {
    await entry('probe').get()
  } catch (e) {
    return { unavailable: (e as Error).message }
  }
  return {
    get: async (id) => {
      const secret = await entry(id).get()
      registerSecret(secret)
      return secret
    },
    set: (id, secret) => {
      registerSecret(secret)
      return entry(id).set(secret)
    },
    clear: (id) => entry(id).delete(),
  }
}

export function noKeychainForSigning(reason: string): TickdeskError {
  return new TickdeskError({
    code: 'KEYCHAIN_UNAVAILABLE',
    message: `Signing needs the OS keychain to keep the webhook's secret, and none answers (${reason})`,
  })
}

/**
 * The keychain opened on first use: hosts whose webhooks are all unsigned never load keytar for
 * them. A keychain that does not answer reads as no secret (the delivery then fails, in words).
 */
export function keychainWebhookSecrets(opts: {
  profile: string
  importKeytar?: KeytarImporter
}): WebhookSecrets {
  let opened: Promise<WebhookSecrets | { unavailable: string }> | null = null
  const store = async (): Promise<WebhookSecrets> => {
    opened ??= openWebhookSecrets(opts)
    const s = await opened
    if ('unavailable' in s) throw noKeychainForSigning(s.unavailable)
    return s
  }
  return {
    get: async (id) => (await store()).get(id),
    set: async (id, secret) => (await store()).set(id, secret),
    clear: async (id) => (await store()).clear(id),
  }
}
