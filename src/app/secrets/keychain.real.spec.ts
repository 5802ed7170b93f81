import { describe, expect, it } from 'vitest'
import { Keychain, loadKeytar } from './keychain'
import { createSecretStore } from './secret-store'

/**
 * Talks to a real Secret Service through the real keytar. Runs only with
 * TICKDESK_REAL_KEYCHAIN=1, as CI does:
 *   dbus-run-session -- sh -c 'echo -n x | gnome-keyring-daemon --unlock --components=secrets;
 *     TICKDESK_REAL_KEYCHAIN=1 npx vitest run --project node src/app/secrets/keychain.real.spec.ts'
 */
const enabled = process.env['TICKDESK_REAL_KEYCHAIN'] === '1'
if (!enabled) {
  console.warn(
    '\n*** SKIPPED keychain.real.spec.ts: set TICKDESK_REAL_KEYCHAIN=1 inside a D-Bus session with an unlocked Secret Service ***\n',
  )
}

describe.skipIf(!enabled)('real OS keychain (TICKDESK_REAL_KEYCHAIN=1)', () => {
  const account = `spec-${process.pid}-${Date.now()}`

  it('stores, reads and deletes a key under service "tickdesk"', async () => {
    const loaded = await loadKeytar()
    expect(loaded.reason).toBeNull()
    const keychain = new Keychain(loaded.keytar!, { account, timeoutMs: 10_000 })
    await keychain.set('sk-real-keychain-1234')
    expect(await keychain.get()).toBe('sk-real-keychain-1234')
    await keychain.delete()
    expect(await keychain.get()).toBeNull()
  })

  it('is picked as the secret store when reachable', async () => {
    const store = await createSecretStore({
      env: {},
      dataDir: '/nonexistent',
      platform: process.platform,
      safeStorage: null,
      profile: account,
      timeoutMs: 10_000,
    })
    expect(store.kind).toBe('keychain')
    await store.set('sk-real-keychain-5678')
    expect(await store.get()).toBe('sk-real-keychain-5678')
    await store.clear()
  })
})
