import { systemClock, type Clock } from '../../core/clock'
import { TickdeskError } from '../../core/errors'

/**
 * The OS keychain through keytar (service "tickdesk", account = profile).
 * keytar is an optionalDependency with a native addon: it may be missing, built for another ABI,
 * or unable to reach a Secret Service, so it is loaded with a dynamic import inside try/catch.
 * A locked keyring can leave a keytar call pending forever (it waits on an unlock prompt), so
 * every call races a timeout and fails as KEYCHAIN_UNAVAILABLE; the caller then falls back.
 */
export const KEYCHAIN_SERVICE = 'tickdesk'
export const KEYCHAIN_TIMEOUT_MS = 3000

export interface KeytarModule {
  getPassword(service: string, account: string): Promise<string | null>
  setPassword(service: string, account: string, password: string): Promise<void>
  deletePassword(service: string, account: string): Promise<boolean>
}

export type KeytarImporter = () => Promise<unknown>

export type KeytarLoad = { keytar: KeytarModule; reason: null } | { keytar: null; reason: string }

function isKeytar(value: unknown): value is KeytarModule {
  if (typeof value !== 'object' || value === null) return false
  const m = value as Record<string, unknown>
  return (
    typeof m['getPassword'] === 'function' &&
    typeof m['setPassword'] === 'function' &&
    typeof m['deletePassword'] === 'function'
  )
}

// A runtime specifier keeps the bundler out: bundling would copy keytar's addon into out/main,
// while electron-builder rebuilds node_modules/keytar for Electron when packaging.
const KEYTAR = 'keytar'
/** node_modules/keytar, as npm built it (for Node); the Electron host may prefer its own copy. */
export const importKeytar: KeytarImporter = () => import(/* @vite-ignore */ KEYTAR)

export async function loadKeytar(importer: KeytarImporter = importKeytar): Promise<KeytarLoad> {
  try {
    const mod = await importer()
    // keytar is CommonJS: its functions sit on the namespace or on `default`, depending on the loader.
    const candidate = isKeytar(mod) ? mod : (mod as { default?: unknown } | null)?.default
    if (isKeytar(candidate)) return { keytar: candidate, reason: null }
    return { keytar: null, reason: 'keytar loaded but does not look like keytar' }
  } catch (error) {
    return {
      keytar: null,
      reason: `keytar is not available (${(error as Error)?.message ?? error})`,
    }
  }
}

/** Settles with the promise, or rejects with KEYCHAIN_UNAVAILABLE after `ms`; the late result is ignored. */
export function withTimeout<T>(
  promise: Promise<T>,
  ms: number,
  clock: Clock,
  what: string,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = clock.setTimeout(() => {
      reject(
        new TickdeskError({
          code: 'KEYCHAIN_UNAVAILABLE',
          message: `The OS keychain did not answer ${what} within ${ms} ms (locked keyring?)`,
        }),
      )
    }, ms)
    promise.then(
      (value) => {
        clock.clearTimeout(timer)
        resolve(value)
      },
      (error: unknown) => {
        clock.clearTimeout(timer)
        reject(
          new TickdeskError({
            code: 'KEYCHAIN_UNAVAILABLE',
            message: `The OS keychain refused ${what}: ${(error as Error)?.message ?? String(error)}`,
            cause: error,
          }),
        )
      },
    )
  })
}

export interface KeychainOptions {
  account: string
  timeoutMs?: number
  clock?: Clock
}

/** One keychain entry (service "tickdesk", this account); every call bounded by the timeout. */
export class Keychain {
  private readonly timeoutMs: number
  private readonly clock: Clock

  constructor(
    private readonly keytar: KeytarModule,
    private readonly opts: KeychainOptions,
  ) {
    this.timeoutMs = opts.timeoutMs ?? KEYCHAIN_TIMEOUT_MS
    this.clock = opts.clock ?? systemClock
  }

  get(): Promise<string | null> {
    return this.bounded(
      () => this.keytar.getPassword(KEYCHAIN_SERVICE, this.opts.account),
      'a read',
    )
  }

  set(secret: string): Promise<void> {
    return this.bounded(
      () => this.keytar.setPassword(KEYCHAIN_SERVICE, this.opts.account, secret),
      'a write',
    )
  }

  async delete(): Promise<void> {
    await this.bounded(
      () => this.keytar.deletePassword(KEYCHAIN_SERVICE, this.opts.account),
      'a delete',
    )
  }

  private bounded<T>(call: () => Promise<T>, what: string): Promise<T> {
    let promise: Promise<T>
    try {
      promise = call()
    } catch (error) {
      promise = Promise.reject(error)
    }
    return withTimeout(promise, this.timeoutMs, this.clock, what)
  }
}
