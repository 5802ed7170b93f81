import { describe, expect, it } from 'vitest'
import { FakeClock } from '../../core/clock'
import type { SecretStore } from '../host-api'
import { KEY_NOT_KEPT, KeyKeeper } from './key-keeper'
import { memorySecretStore } from './memory-secret-store'
import { NoticeBoard } from '../notice-board'

const KEY = 'sk-live-abcdefgh-1234'
const URL = 'https://api.example.com'

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
    await keys.load(URL)
    expect(keys.info(URL)).toEqual({
      hasKey: false,
      masked: '',
      storage: 'none',
      warning: null,
      warningDetail: null,
      forHost: null,
      withheld: null,
    })
    await keys.set(KEY, URL)
    expect(await store.get()).toContain(KEY)
    expect(keys.keyFor(URL)).toBe(KEY)
    expect(keys.info(URL)).toEqual({
      hasKey: true,
      masked: '••••1234',
      storage: 'memory',
      warning: null,
      warningDetail: null,
      forHost: 'api.example.com',
      withheld: null,
    })
    await keys.clear()
    expect(await store.get()).toBeNull()
    expect(keys.info(URL).hasKey).toBe(false)
  })

  it('says the environment’s key is in use, whatever the store holds', async () => {
    const keys = new KeyKeeper(
      memorySecretStore(KEY),
      { TICKDESK_API_KEY: 'env-key-9876' },
      new NoticeBoard(new FakeClock(), () => undefined),
    )
    await keys.load(URL)
    expect(keys.info(URL)).toMatchObject({ hasKey: true, masked: '••••9876', storage: 'env' })
  })

  it('keeps a key the keychain refused for this session and says it will not be remembered', async () => {
    const notices = new NoticeBoard(new FakeClock(), () => undefined)
    const keys = new KeyKeeper(lockedKeychain, {}, notices)
    await keys.load(URL)
    await keys.set(KEY, URL)
    expect(keys.keyFor(URL)).toBe(KEY)
    expect(notices.all()).toMatchObject([
      { code: 'KEYCHAIN_UNAVAILABLE', level: 'warning', message: KEY_NOT_KEPT },
    ])
    expect(notices.all()[0]?.detail).toContain('The keyring is locked')
    expect(JSON.stringify(notices.all())).not.toContain(KEY)
  })

  it('says nothing of the keychain at start (demo mode has no key), and tells when a key is saved', async () => {
    const notices = new NoticeBoard(new FakeClock(), () => undefined)
    const cause = 'No OS keychain is available (Cannot autolaunch D-Bus without X11 $DISPLAY).'
    const keys = new KeyKeeper(memorySecretStore(null, cause), {}, notices)
    await keys.load(URL)
    expect(notices.all()).toEqual([])
    // Settings shows it beside the key field: in a trader's words, the cause behind details.
    expect(keys.info(URL)).toMatchObject({ warning: KEY_NOT_KEPT, warningDetail: cause })
    expect(KEY_NOT_KEPT).not.toMatch(/D-Bus|libsecret|keytar/)
    await keys.set(KEY, URL)
    await keys.set(`${KEY}-2`, URL)
    expect(notices.all().map((n) => [n.code, n.message, n.detail, n.count])).toEqual([
      ['KEYCHAIN_UNAVAILABLE', KEY_NOT_KEPT, cause, 2],
    ])
  })

  it('binds a bare key from before the binding once: to no service in demo mode, not to the base URL a later start finds', async () => {
    const store = memorySecretStore(KEY)
    const first = new KeyKeeper(store, {}, new NoticeBoard(new FakeClock(), () => undefined))
    await first.load(undefined)
    const later = new KeyKeeper(store, {}, new NoticeBoard(new FakeClock(), () => undefined))
    await later.load('https://elsewhere.example')
    expect(later.keyFor('https://elsewhere.example')).toBeNull()
    expect(later.withheldFrom('https://elsewhere.example')).toEqual({
      from: 'no service (demo mode)',
      to: 'elsewhere.example',
    })
    await later.set(KEY, 'https://elsewhere.example')
    expect(later.keyFor('https://elsewhere.example/api')).toBe(KEY)
    expect(later.keyFor('http://elsewhere.example')).toBeNull()
    expect(later.keyFor('https://elsewhere.example:8443')).toBeNull()
  })
})
