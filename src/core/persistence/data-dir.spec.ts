import { mkdtemp, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ensureDataDir, resolveDataDir } from './data-dir'

describe('resolveDataDir', () => {
  const home = '/home/ana'

  it('prefers TICKDESK_DATA_DIR', () => {
    expect(resolveDataDir({ TICKDESK_DATA_DIR: '/tmp/td', XDG_CONFIG_HOME: '/x' }, { home })).toBe(
      '/tmp/td',
    )
  })

  it('uses XDG_CONFIG_HOME on Linux, else ~/.config', () => {
    expect(resolveDataDir({ XDG_CONFIG_HOME: '/cfg' }, { platform: 'linux', home })).toBe(
      '/cfg/Tickdesk',
    )
    expect(resolveDataDir({}, { platform: 'linux', home })).toBe('/home/ana/.config/Tickdesk')
    expect(resolveDataDir({ XDG_CONFIG_HOME: 'relative' }, { platform: 'linux', home })).toBe(
      '/home/ana/.config/Tickdesk',
    )
  })

  it('uses Application Support on macOS', () => {
    expect(resolveDataDir({}, { platform: 'darwin', home: '/Users/ana' })).toBe(
      '/Users/ana/Library/Application Support/Tickdesk',
    )
  })

  it('uses %APPDATA% on Windows', () => {
    expect(
      resolveDataDir({ APPDATA: 'C:\\Users\\ana\\AppData\\Roaming' }, { platform: 'win32', home }),
    ).toBe('C:\\Users\\ana\\AppData\\Roaming\\Tickdesk')
  })
})

describe('ensureDataDir', () => {
  it('creates the directory and its parents, private to the user', async () => {
    const root = await mkdtemp(join(tmpdir(), 'tickdesk-dir-'))
    try {
      const dir = await ensureDataDir(join(root, 'a', 'Tickdesk'))
      const info = await stat(dir)
      expect(info.isDirectory()).toBe(true)
      if (process.platform !== 'win32') expect(info.mode & 0o777).toBe(0o700)
      await ensureDataDir(dir) // idempotent
    } finally {
      await rm(root, { recursive: true, force: true })
    }
  })
})
