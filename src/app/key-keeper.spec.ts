import { describe, expect, it } from 'vitest'
import { FakeClock } from '../core/clock'
import type { SecretStore } from './host-api'
import { KeyKeeper } from './key-keeper'
import { memorySecretStore } from './memory-secret-store'
import { NoticeBoard } from './notice-board'

const KEY = 'sk-live-abcdefgh-1234'

/** A keychain that refuses to store (locked, or no Secret Service), as the OS can. */
const lockedKeychain: SecretStore = {
  kind: 'keychain',
  warning: null,
  get: () => Promise.reject(new Error('locked')),
  set: () => Promise.reject(new Error('The keyring is locked')),
  clear: () => Promise.reject(new Error('locked')),
}

describe('the key keeper', () => {
  it('keeps the key in the host’s store and shows only its last four characters', async () => {
    const store = memorySecretStore()
    const keys = new KeyKeeper(store, {}, new NoticeBoard(new FakeClock(), () => undefined))
    await keys.load()
    expect(keys.info()).toEqual({ hasKey: false, masked: '', storage: 'none', warning: null })
    await keys.set(KEY)
    expect(await store.get()).toBe(KEY)
    expect(keys.saved).toBe(KEY)
    expect(keys.info()).toEqual({
      hasKey: true,
      masked: '••••1234',
      storage: 'memory',
      warning: null,
    })
    await keys.clear()
    expect(await store.get()).toBeNull()
    expect(keys.info().hasKey).toBe(false)
  })

  it('says the environment’s key is in use, whatever the store holds', async () => {
    const keys = new KeyKeeper(
      memorySecretStore(KEY),
      { TICKDESK_API_KEY: 'env-key-9876' },
      new NoticeBoard(new FakeClock(), () => undefined),
    )
    await keys.load()
    expect(keys.info()).toMatchObject({ hasKey: true, masked: '••••9876', storage: 'env' })
  })

  it('keeps a key the keychain refused for this session and says it will not be remembered', async () => {
    const notices = new NoticeBoard(new FakeClock(), () => undefined)
    const keys = new KeyKeeper(lockedKeychain, {}, notices)
    await keys.load()
    await keys.set(KEY)
    expect(keys.saved).toBe(KEY)
    expect(notices.all()).toMatchObject([{ code: 'KEYCHAIN_UNAVAILABLE', level: 'warning' }])
    expect(notices.all()[0]?.message).toContain('kept in memory until you quit')
    expect(notices.all()[0]?.message).not.toContain(KEY)
  })

  it('passes on the store’s warning when the key is less protected than it should be', async () => {
    const notices = new NoticeBoard(new FakeClock(), () => undefined)
    const warning = 'No keychain answered: your key is kept in memory until you quit.'
    await new KeyKeeper(memorySecretStore(null, warning), {}, notices).load()
    expect(notices.all().map((n) => [n.code, n.message])).toEqual([
      ['KEYCHAIN_UNAVAILABLE', warning],
    ])
  })
})
