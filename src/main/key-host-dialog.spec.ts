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
const { confirmKeyHostInDialog, keyHostDialog } = await import('./key-host-dialog')

/** Issue 38, finding 1: Electron asks in the main process before the key follows a moved base URL. */
describe('the key-host dialog', () => {
  const change = { from: 'api.example.com', to: 'evil.example:8443' }

  it('names both hosts, and keeping the key where it was is the default and the answer to Escape', () => {
    const o = keyHostDialog(change)
    expect(o.message).toContain('evil.example:8443')
    expect(o.detail).toContain('api.example.com')
    expect([o.defaultId, o.cancelId]).toEqual([0, 0])
    expect(o.buttons?.[0]).toMatch(/Keep the key/)
  })

  it('answers yes only for the button that sends the key', async () => {
    const confirm = confirmKeyHostInDialog(() => null)
    response = 0
    expect(await confirm(change)).toBe(false)
    response = 1
    expect(await confirm(change)).toBe(true)
    expect(shown).toHaveLength(2)
  })
})
