import { describe, expect, it } from 'vitest'
import { FakeClock } from '../../core/clock'
import type { SecretStore } from '../host-api'
import { NoticeBoard } from '../notice-board'
import { EMPTY_RING, packRing, withKey } from './key-binding'
import { KEY_NOT_KEPT, KEY_WITHHELD, KeyKeeper, withheldWords } from './key-keeper'
import { memorySecretStore } from './memory-secret-store'
import { NO_KEY_INFO } from '../../shared/settings'

const KEY = 'sk-live-abcdefgh-1234'
const URL = 'https://api.example.com'
const ORIGIN = 'https://api.example.com'
const OTHER = 'https://other.example'

/** A keychain that refuses to store (locked, or no Secret Service), as the OS can. */
const lockedKeychain: SecretStore = {
  kind: 'keychain',
  warning: null,
  get: () => Promise.reject(new Error('locked')),
  set: () => Promise.reject(new Error('The keyring is locked')),
  clear: () => Promise.reject(new Error('locked')),
}

const board = (): NoticeBoard => new NoticeBoard(new FakeClock(), () => undefined)
const keeper = (store: SecretStore, env: NodeJS.ProcessEnv = {}, notices = board()): KeyKeeper =>
  new KeyKeeper(store, env, notices)

/** A store that counts its writes. */
function countingStore(initial: string | null = null): SecretStore & { writes: number } {
  const inner = memorySecretStore(initial)
  const store = {
    kind: inner.kind,
    warning: inner.warning,
    writes: 0,
    get: () => inner.get(),
    set: (k: string) => {
      store.writes++
      return inner.set(k)
    },
    clear: () => {
      store.writes++
      return inner.clear()
    },
  }
  return store
}

describe('the key keeper', () => {
  it('names its codes and words as the app and the page know them', () => {
    expect(KEY_WITHHELD).toBe('KEY_HOST_CHANGED')
    expect(KEY_NOT_KEPT).toBe(
      'Your key will be kept until you quit: this computer has no keychain Tickdesk can use.',
    )
  })

  it('shows Settings the key of the base URL’s origin, else the key that would move there', async () => {
    const keys = keeper(memorySecretStore())
    await keys.load(null)
    await keys.set('key-for-a-1111', ORIGIN)
    await keys.set('key-for-b-2222', OTHER)
    expect(keys.info(URL)).toMatchObject({
      masked: '••••1111',
      forHost: 'https://api.example.com:443',
    })
    expect(keys.info(OTHER).masked).toBe('••••2222')
    expect(keys.info('https://third.example')).toMatchObject({
      masked: '••••2222',
      forHost: 'https://other.example:443',
    })
  })

  it('writes the store only when a key changes: clearing or moving a key it does not hold writes nothing', async () => {
    const store = countingStore(packRing(withKey(EMPTY_RING, ORIGIN, KEY)))
    const keys = keeper(store)
    await keys.load(null)
    await keys.clear(OTHER)
    await keys.move({ kind: 'move', from: OTHER, to: 'https://third.example' })
    expect(store.writes).toBe(0)
    await keys.clear(URL)
    expect(store.writes).toBe(1)
    expect(await store.get()).toBeNull()
  })

  it('raises the withheld notice as a warning, with the words of the stop', async () => {
    const notices = board()
    const keys = keeper(memorySecretStore(), {}, notices)
    await keys.load(null)
    await keys.set(KEY, ORIGIN)
    const words = keys.noteWithheld(OTHER, '')
    expect(notices.all()).toMatchObject([{ level: 'warning', code: KEY_WITHHELD, message: words }])
  })

  it('keeps the key in the host’s store and shows only its last four characters', async () => {
    const store = memorySecretStore()
    const keys = keeper(store)
    await keys.load(null)
    expect(keys.info(URL)).toEqual(NO_KEY_INFO)
    await keys.set(KEY, ORIGIN)
    expect(await store.get()).toContain(KEY)
    expect(keys.keyFor(URL)).toBe(KEY)
    expect(keys.info(URL)).toEqual({
      hasKey: true,
      masked: '••••1234',
      storage: 'memory',
      warning: null,
      warningDetail: null,
      forHost: 'https://api.example.com:443',
      withheld: null,
    })
    await keys.clear(URL)
    expect(await store.get()).toBeNull()
    expect(keys.info(URL).hasKey).toBe(false)
  })

  it('keeps one key per origin: a key entered for one service never replaces or clears another’s', async () => {
    const store = memorySecretStore()
    const keys = keeper(store)
    await keys.load(null)
    await keys.set(KEY, ORIGIN)
    await keys.set('other-key-5678', OTHER)
    expect(keys.keyFor(URL)).toBe(KEY)
    expect(keys.keyFor(`${OTHER}/api`)).toBe('other-key-5678')
    await keys.clear(OTHER)
    expect(keys.keyFor(URL)).toBe(KEY)
    expect(keys.keyFor(OTHER)).toBeNull()
    // What a restart reads back is the same ring.
    const again = keeper(store)
    await again.load(null)
    expect(again.keyFor(URL)).toBe(KEY)
    await again.set('rotated-key-0000', ORIGIN)
    expect(again.keyFor(URL)).toBe('rotated-key-0000')
  })

  it('gives a key only to the exact origin it was entered for: not another scheme, port or host', async () => {
    const keys = keeper(memorySecretStore())
    await keys.load(null)
    await keys.set(KEY, ORIGIN)
    expect(keys.keyFor('https://api.example.com/md/')).toBe(KEY)
    expect(keys.keyFor('https://api.example.com:443')).toBe(KEY)
    for (const url of [
      'http://api.example.com',
      'https://api.example.com:8443',
      'https://api.example.com.',
      'https://API.example.com.evil.test',
      'not a url',
      undefined,
      '',
    ])
      expect(keys.keyFor(url), String(url)).toBeNull()
  })

  it('says which key is withheld from a base URL, and which move would take it there', async () => {
    const notices = board()
    const keys = keeper(memorySecretStore(), {}, notices)
    await keys.load(null)
    expect(keys.withheldFrom(OTHER)).toBeNull()
    expect(keys.pendingMove(OTHER)).toBeNull()
    await keys.set(KEY, ORIGIN)
    expect(keys.withheldFrom(URL)).toBeNull()
    expect(keys.withheldFrom(undefined)).toBeNull()
    expect(keys.withheldFrom(OTHER)).toEqual({ from: ORIGIN, to: OTHER })
    expect(keys.pendingMove(OTHER)).toEqual({ kind: 'move', from: ORIGIN, to: OTHER })
    expect(keys.pendingMove(URL)).toBeNull()
    expect(keys.info(OTHER)).toMatchObject({
      hasKey: true,
      forHost: 'https://api.example.com:443',
      withheld:
        'Entered for https://api.example.com:443: not sent to https://other.example:443 until you enter it again or confirm the change outside this page.',
    })
    expect(keys.noteWithheld(OTHER, ' (or confirm it here)')).toContain('(or confirm it here)')
    expect(notices.all().map((n) => n.code)).toEqual([KEY_WITHHELD])
    expect(keys.noteWithheld(URL, '')).toBeNull()
    expect(notices.all()).toEqual([])
  })

  it('moves a key exactly as confirmed, and not at all when the key it names is gone', async () => {
    const store = memorySecretStore()
    const keys = keeper(store)
    await keys.load(null)
    await keys.set(KEY, ORIGIN)
    await keys.move({ kind: 'move', from: ORIGIN, to: OTHER })
    expect(keys.keyFor(OTHER)).toBe(KEY)
    expect(keys.keyFor(URL)).toBeNull()
    expect(await store.get()).toBe(packRing(withKey(EMPTY_RING, OTHER, KEY)))
    await keys.move({ kind: 'move', from: ORIGIN, to: 'https://third.example' })
    expect(keys.keyFor('https://third.example')).toBeNull()
  })

  it('asks for a confirmation only when a key is entered for a service other than the kept ones', async () => {
    const keys = keeper(memorySecretStore())
    await keys.load(null)
    expect(keys.entryNeeds(ORIGIN)).toBeNull()
    await keys.set(KEY, ORIGIN)
    expect(keys.entryNeeds(ORIGIN)).toBeNull()
    expect(keys.entryNeeds('')).toBeNull()
    expect(keys.entryNeeds(OTHER)).toEqual({ kind: 'new-key', from: ORIGIN, to: OTHER })
  })

  it('keeps a key entered in demo mode for no service, sent nowhere, until a key for a service replaces it', async () => {
    const keys = keeper(memorySecretStore())
    await keys.load(null)
    await keys.set(KEY, '')
    expect(keys.keyFor(undefined)).toBeNull()
    expect(keys.info(undefined)).toMatchObject({ hasKey: true, forHost: null, withheld: null })
    expect(keys.withheldFrom(URL)).toEqual({ from: '', to: ORIGIN })
    expect(keys.pendingMove(URL)).toEqual({ kind: 'move', from: '', to: ORIGIN })
    expect(withheldWords({ from: '', to: ORIGIN }, '')).toMatch(
      /entered for no service \(demo mode\).*or clear the base URL to go back to demo mode\.$/,
    )
    await keys.set('service-key-9999', ORIGIN)
    expect(keys.keyFor(URL)).toBe('service-key-9999')
    expect(keys.entryNeeds(OTHER)?.from).toBe(ORIGIN)
    // The key held for no service went with that entry: demo mode shows the service's key.
    expect(keys.info(undefined)).toMatchObject({ forHost: 'https://api.example.com:443' })
  })

  it('binds the environment’s key to the origin the environment named, never to a base URL from a file', async () => {
    const keys = keeper(memorySecretStore(KEY), { TICKDESK_API_KEY: 'env-key-9876' })
    await keys.load(ORIGIN)
    expect(keys.keyFor(URL)).toBe('env-key-9876')
    expect(keys.keyFor(OTHER)).toBeNull()
    expect(keys.pendingMove(OTHER)).toBeNull()
    expect(keys.info(URL)).toMatchObject({ hasKey: true, masked: '••••9876', storage: 'env' })
    await keys.move({ kind: 'move', from: ORIGIN, to: OTHER })
    expect(keys.keyFor(OTHER)).toBeNull()
    await expect(keys.set('typed-key-1111', OTHER)).rejects.toMatchObject({
      code: 'NOT_SUPPORTED',
      message:
        'TICKDESK_API_KEY is sent only to the service named by TICKDESK_BASE_URL (or --base-url), and overrides any key entered here: unset it to manage the key in Settings',
    })

    const unnamed = keeper(memorySecretStore(), { TICKDESK_API_KEY: 'env-key-9876' })
    await unnamed.load(null)
    expect(unnamed.keyFor(URL)).toBeNull()
    expect(unnamed.keyFor(undefined)).toBeNull()
    expect(unnamed.keyFor('not a url')).toBeNull()
    expect(unnamed.withheldFrom(URL)).toEqual({ from: null, to: ORIGIN })
    expect(unnamed.info(URL).withheld).toMatch(
      /TICKDESK_API_KEY is sent only to .*TICKDESK_BASE_URL/,
    )
    expect(withheldWords({ from: null, to: ORIGIN }, '')).toMatch(
      /Live prices stopped: TICKDESK_API_KEY .* points at https:\/\/api\.example\.com:443/,
    )
  })

  it('says nothing of the keychain while the environment’s key is in use', async () => {
    const keys = keeper(memorySecretStore(null, 'No OS keychain is available.'), {
      TICKDESK_API_KEY: 'env-key-9876',
    })
    await keys.load(ORIGIN)
    expect(keys.info(URL)).toMatchObject({ warning: null, warningDetail: null, storage: 'env' })
  })

  it('keeps a key the keychain refused for this session and says it will not be remembered', async () => {
    const notices = board()
    const keys = keeper(lockedKeychain, {}, notices)
    await keys.load(null)
    await keys.set(KEY, ORIGIN)
    expect(keys.keyFor(URL)).toBe(KEY)
    expect(notices.all()).toMatchObject([
      { code: 'KEYCHAIN_UNAVAILABLE', level: 'warning', message: KEY_NOT_KEPT },
    ])
    expect(notices.all()[0]?.detail).toContain('The keyring is locked')
    expect(JSON.stringify(notices.all())).not.toContain(KEY)
  })

  it('says nothing of the keychain at start (demo mode has no key), and tells when a key is saved', async () => {
    const notices = board()
    const cause = 'No OS keychain is available (Cannot autolaunch D-Bus without X11 $DISPLAY).'
    const keys = keeper(memorySecretStore(null, cause), {}, notices)
    await keys.load(null)
    expect(notices.all()).toEqual([])
    // Settings shows it beside the key field: in a trader's words, the cause behind details.
    expect(keys.info(URL)).toMatchObject({ warning: KEY_NOT_KEPT, warningDetail: cause })
    expect(KEY_NOT_KEPT).not.toMatch(/D-Bus|libsecret|keytar/)
    await keys.set(KEY, ORIGIN)
    await keys.set(`${KEY}-2`, ORIGIN)
    expect(notices.all().map((n) => [n.code, n.message, n.detail, n.count])).toEqual([
      ['KEYCHAIN_UNAVAILABLE', KEY_NOT_KEPT, cause, 2],
    ])
  })

  it('binds a bare key from before the binding once, to the origin the host trusts or to no service, never to a later base URL', async () => {
    const store = memorySecretStore(KEY)
    const first = keeper(store)
    await first.load(null)
    const later = keeper(store)
    await later.load('https://elsewhere.example')
    expect(later.keyFor('https://elsewhere.example')).toBeNull()
    expect(later.withheldFrom('https://elsewhere.example')).toEqual({
      from: '',
      to: 'https://elsewhere.example',
    })
    const trusted = keeper(memorySecretStore(KEY))
    await trusted.load(ORIGIN)
    expect(trusted.keyFor(URL)).toBe(KEY)
  })

  it('reads the single bound key an earlier version stored', async () => {
    const v1 = JSON.stringify({ tickdeskKey: 1, key: KEY, origin: ORIGIN })
    const keys = keeper(memorySecretStore(v1))
    await keys.load(null)
    expect(keys.keyFor(URL)).toBe(KEY)
    const demo = keeper(
      memorySecretStore(JSON.stringify({ tickdeskKey: 1, key: KEY, origin: null })),
    )
    await demo.load(ORIGIN)
    expect(demo.keyFor(URL)).toBeNull()
    expect(demo.pendingMove(URL)).toEqual({ kind: 'move', from: '', to: ORIGIN })
  })
})
