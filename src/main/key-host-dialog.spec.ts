import { describe, expect, it, vi } from 'vitest'

const shown: unknown[] = []
let response = 0
vi.mock('electron', () => ({
  dialog: {
    showMessageBox: async (...args: unknown[]) => {
      shown.push(args.at(-1))
      return { response, checkboxChecked: false }
    },
  },
}))
const { confirmKeyMoveInDialog, keyHostDialog } = await import('./key-host-dialog')

/** Electron asks in the main process before a key goes to an origin it was not entered for. */
describe('the key-host dialog', () => {
  const move = {
    kind: 'move' as const,
    from: 'https://api.example.com',
    to: 'http://api.example.com:8443',
  }

  it('names both origins in full, calls out a step down to http and a port change, and keeping the key is the default and the answer to Escape', () => {
    const o = keyHostDialog(move)
    expect(o.message).toBe('Send your API key to http://api.example.com:8443?')
    expect(o.detail).toContain('https://api.example.com:443')
    expect(o.detail).toMatch(/plain http, not https/)
    expect(o.detail).toMatch(/another port \(443 before, 8443 now\)/)
    expect([o.defaultId, o.cancelId]).toEqual([0, 0])
    expect(o.buttons).toEqual([
      'Keep the key where it was',
      'Send the key to http://api.example.com:8443',
    ])
  })

  it('asks about a key entered from the page for another service in its own words', () => {
    const o = keyHostDialog({ kind: 'new-key', from: move.from, to: 'https://evil.example' })
    expect(o.message).toBe('Use the key just entered for https://evil.example:443?')
    expect(o.detail).toMatch(/keeps your key for https:\/\/api\.example\.com:443/)
    expect(o.detail).toMatch(/host changes from api\.example\.com to evil\.example/)
    expect(o.buttons?.[0]).toBe('Do not use it')
  })

  it('answers yes only for the button that sends the key', async () => {
    const { confirm, where } = confirmKeyMoveInDialog(() => null)
    expect(where).toMatch(/dialog/)
    response = 0
    expect(await confirm!(move)).toBe(false)
    response = 1
    expect(await confirm!(move)).toBe(true)
    expect(shown).toHaveLength(2)
  })
})
