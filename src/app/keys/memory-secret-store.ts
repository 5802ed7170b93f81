import type { SecretStore } from '../host-api'

/** Keeps the key in this process only: the fallback where no keychain answers, and tests. */
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
