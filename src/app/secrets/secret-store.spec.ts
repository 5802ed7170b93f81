import { mkdtemp, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { redact } from '../../core/log'
import {
  createSecretStore,
  encryptionUsable,
  KEY_FILE,
  keychainProfile,
  type EncryptionBackend,
} from './secret-store'
import type { KeytarModule } from './keychain'

/**
 * No electron here: the store takes safeStorage as a parameter. The "OS cipher" below is a real,
 * reversible transform with a per-instance key, standing in for the platform keyring.
 */
function osCipher(backend: string, available = true): EncryptionBackend {
  const pad = 0x5a
  const xor = (b: Buffer): Buffer => Buffer.from(b.map((x) => x ^ pad))
  return {
    isEncryptionAvailable: () => available,
    getSelectedStorageBackend: () => backend,
    encryptString: (s) => xor(Buffer.from(`tickdesk:${s}`)),
    decryptString: (b) => {
      const text = xor(b).toString()
      if (!text.startsWith('tickdesk:')) throw new Error('bad ciphertext')
      return text.slice('tickdesk:'.length)
    },
  }
}

/** An in-memory keytar with the real module's shape. */
function memoryKeytar(): KeytarModule & { entries: Map<string, string> } {
  const entries = new Map<string, string>()
  return {
    entries,
    getPassword: async (s, a) => entries.get(`${s}/${a}`) ?? null,
    setPassword: async (s, a, p) => {
      entries.set(`${s}/${a}`, p)
    },
    deletePassword: async (s, a) => entries.delete(`${s}/${a}`),
  }
}

let dataDir: string
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'tickdesk-secret-'))
})
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true })
})

const base = () => ({
  env: {},
  dataDir,
  platform: 'linux' as const,
  safeStorage: osCipher('gnome_libsecret'),
})

describe('secret store', () => {
  it('uses the keychain under service "tickdesk" and the profile as account', async () => {
    const keytar = memoryKeytar()
    const store = await createSecretStore({
      ...base(),
      profile: 'work',
      importKeytar: async () => keytar,
    })
    expect(store.kind).toBe('keychain')
    expect(store.warning).toBeNull()
    await store.set('sk-live-12345678')
    expect(keytar.entries.get('tickdesk/work')).toBe('sk-live-12345678')
    expect(await store.get()).toBe('sk-live-12345678')
    await store.clear()
    expect(await store.get()).toBeNull()
  })

  it('accepts keytar as a CommonJS default export', async () => {
    const store = await createSecretStore({
      ...base(),
      importKeytar: async () => ({ default: memoryKeytar() }),
    })
    expect(store.kind).toBe('keychain')
  })

  it('falls back to an encrypted file when keytar cannot be loaded', async () => {
    const store = await createSecretStore({
      ...base(),
      importKeytar: async () => {
        throw new Error('Cannot find module keytar')
      },
    })
    expect(store.kind).toBe('encrypted-file')
    await store.set('sk-live-12345678')
    const onDisk = await readFile(join(dataDir, KEY_FILE))
    expect(onDisk.toString()).not.toContain('sk-live-12345678')
    expect((await stat(join(dataDir, KEY_FILE))).mode & 0o077).toBe(0)
    const reopened = await createSecretStore({ ...base(), importKeytar: async () => null })
    expect(await reopened.get()).toBe('sk-live-12345678')
    await reopened.clear()
    expect(await reopened.get()).toBeNull()
  })

  it('times out a keytar that never answers and falls back', async () => {
    const hanging: KeytarModule = {
      getPassword: () => new Promise(() => undefined),
      setPassword: () => new Promise(() => undefined),
      deletePassword: () => new Promise(() => undefined),
    }
    const store = await createSecretStore({
      ...base(),
      importKeytar: async () => hanging,
      timeoutMs: 20,
    })
    expect(store.kind).toBe('encrypted-file')
    await store.set('sk-live-12345678')
    expect(await store.get()).toBe('sk-live-12345678')
  })

  it('falls back for good when the keychain stops answering after start', async () => {
    const keytar = memoryKeytar()
    let locked = false
    const flaky: KeytarModule = {
      getPassword: (s, a) => (locked ? new Promise(() => undefined) : keytar.getPassword(s, a)),
      setPassword: (s, a, p) =>
        locked ? Promise.reject(new Error('locked')) : keytar.setPassword(s, a, p),
      deletePassword: (s, a) => keytar.deletePassword(s, a),
    }
    const store = await createSecretStore({
      ...base(),
      safeStorage: null,
      importKeytar: async () => flaky,
      timeoutMs: 20,
    })
    expect(store.kind).toBe('keychain')
    locked = true
    await store.set('sk-live-12345678')
    expect(store.kind).toBe('memory')
    expect(store.warning).toMatch(/memory only/)
    expect(await store.get()).toBe('sk-live-12345678')
  })

  it('keeps the key in memory with a visible warning when safeStorage is basic_text', async () => {
    const store = await createSecretStore({
      ...base(),
      safeStorage: osCipher('basic_text'),
      importKeytar: async () => {
        throw new Error('libsecret-1.so.0: cannot open shared object file')
      },
    })
    expect(store.kind).toBe('memory')
    expect(store.warning).toContain('libsecret-1.so.0')
    expect(store.warning).toMatch(/memory only/)
    await store.set('sk-live-12345678')
    expect(await store.get()).toBe('sk-live-12345678')
    await expect(stat(join(dataDir, KEY_FILE))).rejects.toThrow()
  })

  it('lets TICKDESK_API_KEY override every store and refuses to overwrite it', async () => {
    const keytar = memoryKeytar()
    keytar.entries.set('tickdesk/default', 'from-keychain')
    const store = await createSecretStore({
      ...base(),
      env: { TICKDESK_API_KEY: ' from-env-123 ' },
      importKeytar: async () => keytar,
    })
    expect(store.kind).toBe('env')
    expect(await store.get()).toBe('from-env-123')
    await expect(store.set('another-key-1')).rejects.toMatchObject({ code: 'NOT_SUPPORTED' })
    expect(keytar.entries.get('tickdesk/default')).toBe('from-keychain')
  })

  it('without safeStorage (browser host, CLI) keeps the key in memory and says there is no keychain', async () => {
    const store = await createSecretStore({
      ...base(),
      safeStorage: null,
      importKeytar: async () => {
        throw new Error('Could not connect: No such file or directory')
      },
    })
    expect(store.kind).toBe('memory')
    expect(store.warning).toMatch(/^No OS keychain is available \(.*No such file/)
    await expect(stat(join(dataDir, KEY_FILE))).rejects.toThrow()
  })

  it('hides every key that passes through it from the logs', async () => {
    const keytar = memoryKeytar()
    keytar.entries.set('tickdesk/default', 'sk-stored-REDACT-ME-0001')
    const store = await createSecretStore({ ...base(), importKeytar: async () => keytar })
    await store.get()
    await store.set('sk-typed-REDACT-ME-0002')
    expect(redact('a sk-stored-REDACT-ME-0001 b sk-typed-REDACT-ME-0002')).toBe(
      'a •••0001 b •••0002',
    )
  })

  it('takes the keychain account from TICKDESK_PROFILE', () => {
    expect(keychainProfile({ TICKDESK_PROFILE: ' work ' })).toBe('work')
    expect(keychainProfile({ TICKDESK_PROFILE: '' })).toBe('default')
    expect(keychainProfile({})).toBe('default')
  })

  it('trusts safeStorage only when backed by the OS', () => {
    expect(encryptionUsable(osCipher('basic_text'), 'linux')).toBe(false)
    expect(encryptionUsable(osCipher('kwallet5'), 'linux')).toBe(true)
    expect(encryptionUsable(osCipher('unknown', false), 'darwin')).toBe(false)
    expect(encryptionUsable(osCipher('unknown'), 'win32')).toBe(true)
    expect(encryptionUsable(null, 'darwin')).toBe(false)
  })
})
