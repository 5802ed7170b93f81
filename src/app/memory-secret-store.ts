import type { SecretStore } from './host-api'

/** Keeps the key in this process only: for the CLI, the browser host and tests. */
export function memorySecretStore(
  initial: string | null = null,
  warning: string | null = null,
): SecretStore {
  let value = initial
  return {
    kind: 'memory',
    warning,
    get: () => Promise.resolve(value),
    set: (k) => {
      value = k
      return Promise.resolve()
    },
    clear: () => {
      value = null
      return Promise.resolve()
    },
  }
}

/** The browser host has no keychain of its own: TICKDESK_API_KEY, else a key entered this session. */
export function envOrMemorySecretStore(env: NodeJS.ProcessEnv): SecretStore {
  const fromEnv = env.TICKDESK_API_KEY
  if (fromEnv) return { ...memorySecretStore(fromEnv), kind: 'env' }
  return memorySecretStore(null, null)
}
