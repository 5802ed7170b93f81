import { mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  defaultWriter,
  readTextIfExists,
  removeOrphanedTemps,
  writeFileAtomic,
  type AtomicWriter,
} from './atomic-file'
import { isTickdeskError } from '../errors'

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tickdesk-atomic-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

/** A writer that fails the way a full disk or exhausted quota does. */
function failingWith(code: string): AtomicWriter {
  return () =>
    Promise.reject(Object.assign(new Error(`${code}: no space left on device`), { code }))
}

describe('writeFileAtomic', () => {
  it('replaces the whole file content', async () => {
    const path = join(dir, 'a.json')
    await writeFileAtomic(path, 'first')
    await writeFileAtomic(path, 'second')
    expect(await readFile(path, 'utf8')).toBe('second')
    expect(await readdir(dir)).toEqual(['a.json']) // no temp files left behind
  })

  it('creates files readable by the owner only', async () => {
    const path = join(dir, 'a.json')
    await writeFileAtomic(path, 'x')
    if (process.platform !== 'win32') expect((await stat(path)).mode & 0o777).toBe(0o600)
  })

  for (const code of ['ENOSPC', 'EDQUOT']) {
    it(`maps ${code} to DISK_FULL and leaves the previous file intact`, async () => {
      const path = join(dir, 'settings.json')
      await writeFileAtomic(path, '{"old":true}')
      const error = await writeFileAtomic(path, '{"new":true}', failingWith(code)).catch(
        (e: unknown) => e,
      )
      expect(isTickdeskError(error) && error.code).toBe('DISK_FULL')
      expect(await readFile(path, 'utf8')).toBe('{"old":true}')
    })
  }

  it('reports other write failures as STORAGE_WRITE, keeping the old file', async () => {
    const path = join(dir, 'a.json')
    await writeFileAtomic(path, 'old')
    const error = await writeFileAtomic(path, 'new', failingWith('EIO')).catch((e: unknown) => e)
    expect(isTickdeskError(error) && error.code).toBe('STORAGE_WRITE')
    expect(await readFile(path, 'utf8')).toBe('old')
  })

  it('fails as a TickdeskError when the target directory does not exist', async () => {
    const error = await writeFileAtomic(join(dir, 'missing', 'a.json'), 'x', defaultWriter).catch(
      (e: unknown) => e,
    )
    expect(isTickdeskError(error)).toBe(true)
  })
})

describe('readTextIfExists', () => {
  it('returns null for a missing file and the text otherwise', async () => {
    expect(await readTextIfExists(join(dir, 'nope.json'))).toBeNull()
    await writeFile(join(dir, 'yes.json'), 'hi')
    expect(await readTextIfExists(join(dir, 'yes.json'))).toBe('hi')
  })
})

describe('removeOrphanedTemps', () => {
  it('deletes temp files a killed writer left behind, but not fresh ones or other files', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tickdesk-orphans-'))
    const target = join(dir, 'watchlists.json')
    for (const name of [
      'watchlists.json',
      'watchlists.json.123456',
      'watchlists.json.99',
      'watchlists.json.bak',
      'alerts.json.777',
    ]) {
      await writeFile(join(dir, name), 'x')
    }
    // Ages on the file system's clock, which removeOrphanedTemps reads (a file just written says
    // its time); a faked process clock (faketime) does not move it, so Date.now() would not do.
    const fsNow = (await stat(join(dir, 'watchlists.json'))).mtimeMs
    const fresh = new Date(fsNow)
    for (const name of await readdir(dir)) await utimes(join(dir, name), fresh, fresh)
    const old = new Date(fsNow - 5 * 60_000)
    await utimes(join(dir, 'watchlists.json.123456'), old, old)
    await utimes(join(dir, 'alerts.json.777'), old, old)
    expect(await removeOrphanedTemps(target)).toBe(1)
    expect((await readdir(dir)).sort()).toEqual([
      'alerts.json.777',
      'watchlists.json',
      'watchlists.json.99',
      'watchlists.json.bak',
    ])
  })

  it("judges a temp's age on the file system's clock, not the process's", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tickdesk-orphans-'))
    const target = join(dir, 'alerts.json')
    await writeFile(join(dir, 'alerts.json.4242'), 'x')
    // This process's clock a day ahead of the disk's (a network folder's server running behind):
    // the temp a writer made a moment ago is still fresh, and kept.
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + 86_400_000)
    try {
      expect(await removeOrphanedTemps(target)).toBe(0)
    } finally {
      vi.useRealTimers()
    }
    expect(await readdir(dir)).toEqual(['alerts.json.4242'])
  })
})
