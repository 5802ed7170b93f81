import { readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import writeFileAtomic from 'write-file-atomic'
import type { Clock } from '../../core/clock'
import { TickdeskError } from '../../core/errors'
import { registerSecret } from '../../core/log'
import type { SecretStore } from '../host-api'
import { memorySecretStore } from '../keys/memory-secret-store'
import { Keychain, loadKeytar, type KeytarImporter } from './keychain'

/**
 * Where a host keeps the API key (architecture: Secrets), best first. Plain Node: the Electron
 * host passes its safeStorage in; the browser host and the CLI pass null.
 *   env            TICKDESK_API_KEY is set: it wins; set/clear are refused (unset it instead)
 *   keychain       keytar loaded and answering within the timeout
 *   encrypted-file dataDir/key.enc via safeStorage, only when its backend is a real one
 *                  (on Linux not 'basic_text', which is a fixed, public key: plain text in effect)
 *   memory         nothing safe is available: the key lives until quit, and `warning` says so
 * The keychain is probed once at start; if a later call times out or fails, the store falls
 * back for good (keychain -> encrypted-file | memory) and reports the new kind.
 */
export interface EncryptionBackend {
  isEncryptionAvailable(): boolean
  encryptString(plainText: string): Buffer
  decryptString(encrypted: Buffer): string
  getSelectedStorageBackend?(): string
}

export interface SecretStoreOptions {
  env: NodeJS.ProcessEnv
  dataDir: string
  platform: NodeJS.Platform
  /** Electron's safeStorage (after app ready); null where there is none (browser host, CLI). */
  safeStorage: EncryptionBackend | null
  /** Keychain account; one per profile. */
  profile?: string
  importKeytar?: KeytarImporter
  timeoutMs?: number
  clock?: Clock
}

export const KEY_FILE = 'key.enc'

/** The keychain account: TICKDESK_PROFILE, so several profiles keep several keys; else "default". */
export function keychainProfile(env: NodeJS.ProcessEnv): string {
  return env['TICKDESK_PROFILE']?.trim() || 'default'
}

export async function createSecretStore(opts: SecretStoreOptions): Promise<SecretStore> {
  return redacting(await chooseStore(opts))
}

async function chooseStore(opts: SecretStoreOptions): Promise<SecretStore> {
  const envKey = opts.env['TICKDESK_API_KEY']?.trim()
  if (envKey) return envStore(envKey)

  const fallback = (reason: string): SecretStore => fallbackStore(opts, reason)
  const loaded = await loadKeytar(opts.importKeytar)
  if (loaded.keytar === null) return fallback(loaded.reason)
  const keychain = new Keychain(loaded.keytar, {
    account: opts.profile ?? 'default',
    ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
    ...(opts.clock ? { clock: opts.clock } : {}),
  })
  try {
    await keychain.get()
  } catch (error) {
    return fallback((error as Error).message)
  }
  return new KeychainSecretStore(keychain, fallback)
}

/** Every key that passes through the store is hidden from logs from then on (core/log.ts). */
function redacting(store: SecretStore): SecretStore {
  return {
    get kind() {
      return store.kind
    },
    get warning() {
      return store.warning
    },
    get: async () => {
      const key = await store.get()
      registerSecret(key)
      return key
    },
    set: async (apiKey) => {
      registerSecret(apiKey)
      await store.set(apiKey)
    },
    clear: () => store.clear(),
  }
}

function envStore(key: string): SecretStore {
  const refuse = async (): Promise<never> => {
    throw new TickdeskError({
      code: 'NOT_SUPPORTED',
      message:
        'TICKDESK_API_KEY is set in the environment and overrides any stored key; unset it to manage the key here',
    })
  }
  return { kind: 'env', warning: null, get: async () => key, set: refuse, clear: refuse }
}

class KeychainSecretStore implements SecretStore {
  private fallen: SecretStore | null = null

  constructor(
    private readonly keychain: Keychain,
    private readonly makeFallback: (reason: string) => SecretStore,
  ) {}

  get kind(): SecretStore['kind'] {
    return this.fallen?.kind ?? 'keychain'
  }

  get warning(): string | null {
    return this.fallen?.warning ?? null
  }

  get(): Promise<string | null> {
    return this.attempt(
      () => this.keychain.get(),
      (s) => s.get(),
    )
  }

  set(apiKey: string): Promise<void> {
    return this.attempt(
      () => this.keychain.set(apiKey),
      (s) => s.set(apiKey),
    )
  }

  clear(): Promise<void> {
    return this.attempt(
      () => this.keychain.delete(),
      (s) => s.clear(),
    )
  }

  private async attempt<T>(
    viaKeychain: () => Promise<T>,
    viaFallback: (s: SecretStore) => Promise<T>,
  ): Promise<T> {
    if (this.fallen) return viaFallback(this.fallen)
    try {
      return await viaKeychain()
    } catch (error) {
      this.fallen = this.makeFallback((error as Error).message)
      return viaFallback(this.fallen)
    }
  }
}

/** safeStorage is only worth using when it is backed by the OS (Keychain, DPAPI, libsecret, kwallet). */
export function encryptionUsable(
  backend: EncryptionBackend | null,
  platform: NodeJS.Platform,
): boolean {
  if (!backend || !backend.isEncryptionAvailable()) return false
  if (platform !== 'linux') return true
  const selected = backend.getSelectedStorageBackend?.() ?? 'unknown'
  return selected !== 'basic_text' && selected !== 'unknown'
}

function fallbackStore(opts: SecretStoreOptions, reason: string): SecretStore {
  if (opts.safeStorage && encryptionUsable(opts.safeStorage, opts.platform))
    return encryptedFileStore(opts.safeStorage, join(opts.dataDir, KEY_FILE))
  // No file "encrypted" with a key kept beside it: that would protect nothing, so memory it is.
  const what = opts.safeStorage ? 'No OS keychain or encrypted storage is' : 'No OS keychain is'
  return memorySecretStore(
    null,
    `${what} available (${reason}). The API key is kept in memory only and must be entered again after a restart.`,
  )
}

function encryptedFileStore(backend: EncryptionBackend, file: string): SecretStore {
  return {
    kind: 'encrypted-file',
    warning: null,
    async get() {
      let data: Buffer
      try {
        data = await readFile(file)
      } catch {
        return null
      }
      try {
        return backend.decryptString(data) || null
      } catch {
        // Encrypted under another OS user or a reset keyring: unreadable, so treat as no key.
        return null
      }
    },
    async set(apiKey) {
      await writeFileAtomic(file, backend.encryptString(apiKey), { mode: 0o600 })
    },
    async clear() {
      await rm(file, { force: true })
    },
  }
}
