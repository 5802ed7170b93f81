import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { loadKeytar } from '../app/secrets/keychain'
import { ELECTRON_KEYTAR_DIR, electronKeytarImporter } from './electron-keytar'

let appPath: string
beforeEach(() => {
  appPath = mkdtempSync(join(tmpdir(), 'tickdesk-app-path-'))
})
afterEach(() => rmSync(appPath, { recursive: true, force: true }))

const npmKeytar = async (): Promise<unknown> => ({ origin: 'node_modules/keytar' })

function stageRebuiltCopy(): void {
  const dir = join(appPath, ELECTRON_KEYTAR_DIR)
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'package.json'), '{"name":"keytar","main":"index.js"}')
  writeFileSync(
    join(dir, 'index.js'),
    "module.exports = { origin: 'electron copy', getPassword: async () => 'k', setPassword: async () => {}, deletePassword: async () => true }",
  )
}

describe('which keytar the Electron host loads', () => {
  it('loads the copy rebuilt for Electron when `npm start` made one', async () => {
    stageRebuiltCopy()
    const loaded = (await electronKeytarImporter(appPath, false, npmKeytar)()) as { origin: string }
    expect(loaded.origin).toBe('electron copy')
    expect((await loadKeytar(electronKeytarImporter(appPath, false, npmKeytar))).reason).toBeNull()
  })

  it('loads node_modules/keytar when there is no rebuilt copy (Node-API loads as built)', async () => {
    expect(await electronKeytarImporter(appPath, false, npmKeytar)()).toEqual({
      origin: 'node_modules/keytar',
    })
  })

  it('ignores a rebuilt copy in a packaged app, whose keytar electron-builder rebuilt', async () => {
    stageRebuiltCopy()
    expect(await electronKeytarImporter(appPath, true, npmKeytar)()).toEqual({
      origin: 'node_modules/keytar',
    })
  })
})
