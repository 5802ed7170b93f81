import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { z } from 'zod'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { FakeClock } from '../clock'
import { isTickdeskError } from '../errors'
import { JsonStore, type JsonStoreOptions } from './json-store'
import type { AtomicWriter } from './atomic-file'
import { isLeaseLost, leaseLost } from './fence'

const PrefsV2 = z.object({ theme: z.enum(['light', 'dark']), fontSize: z.number().int().min(8) })
type Prefs = z.infer<typeof PrefsV2>
const DEFAULTS: Prefs = { theme: 'light', fontSize: 12 }

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tickdesk-store-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

function open(over: Partial<JsonStoreOptions<Prefs>> = {}): JsonStore<Prefs> {
  return new JsonStore<Prefs>({
    dir,
    name: 'prefs',
    schema: PrefsV2,
    version: 2,
    // v1 stored { dark: boolean } and no font size.
    migrations: {
      1: (d) => ({
        theme: (d as { dark?: unknown }).dark === true ? 'dark' : 'light',
        fontSize: 12,
      }),
    },
    defaults: () => ({ ...DEFAULTS }),
    clock: new FakeClock(Date.UTC(2026, 0, 5, 14, 30)),
    ...over,
  })
}

const file = (name: string): string => join(dir, name)
const envelope = (version: number, data: unknown): string => JSON.stringify({ version, data })

describe('JsonStore', () => {
  it('returns the defaults with no problem when the file does not exist', async () => {
    expect(await open().load()).toEqual({ value: DEFAULTS, problem: null })
  })

  it('saves and loads a value in a versioned envelope', async () => {
    await open().save({ theme: 'dark', fontSize: 14 })
    expect(JSON.parse(await readFile(file('prefs.json'), 'utf8'))).toEqual({
      version: 2,
      data: { theme: 'dark', fontSize: 14 },
    })
    expect((await open().load()).value).toEqual({ theme: 'dark', fontSize: 14 })
  })

  it('migrates a v1 file to the current schema', async () => {
    await writeFile(file('prefs.json'), envelope(1, { dark: true }))
    expect(await open().load()).toEqual({ value: { theme: 'dark', fontSize: 12 }, problem: null })
  })

  it('keeps the previous good version as .bak on each save', async () => {
    const store = open()
    await store.load()
    await store.save({ theme: 'dark', fontSize: 10 })
    await store.save({ theme: 'light', fontSize: 20 })
    expect(JSON.parse(await readFile(file('prefs.bak.json'), 'utf8')).data).toEqual({
      theme: 'dark',
      fontSize: 10,
    })
  })

  describe('a save of what the file already holds', () => {
    /** Which file is at the path, and when it was last written: a rewrite (temp + rename) moves both. */
    const stamp = async (name: string): Promise<string> => {
      const s = await stat(file(name), { bigint: true })
      return `${s.ino}:${s.mtimeNs}`
    }

    it('writes nothing: neither the file nor its backup is rewritten', async () => {
      const store = open()
      await store.load()
      await store.save({ theme: 'dark', fontSize: 10 })
      await store.save({ theme: 'light', fontSize: 20 })
      const [current, backup] = [await stamp('prefs.json'), await stamp('prefs.bak.json')]
      await store.save({ theme: 'light', fontSize: 20 })
      expect(await stamp('prefs.json')).toBe(current)
      expect(await stamp('prefs.bak.json')).toBe(backup)
      // A different value is written as before, the backup with it.
      await store.save({ theme: 'light', fontSize: 22 })
      expect(await stamp('prefs.json')).not.toBe(current)
      expect(JSON.parse(await readFile(file('prefs.bak.json'), 'utf8')).data.fontSize).toBe(20)
    })

    it('writes it again once another writer replaced the file', async () => {
      const store = open()
      await store.load()
      await store.save({ theme: 'dark', fontSize: 10 })
      await writeFile(file('prefs.json'), envelope(2, { theme: 'light', fontSize: 30 }))
      await store.save({ theme: 'dark', fontSize: 10 })
      expect((await open().load()).value).toEqual({ theme: 'dark', fontSize: 10 })
    })

    it('still refuses once the fence is lost, as a write would', async () => {
      const store = open()
      await store.load()
      await store.save({ theme: 'dark', fontSize: 10 })
      const lost = {
        check: () => {
          throw leaseLost('taken over')
        },
      }
      const refused = await store.save({ theme: 'dark', fontSize: 10 }, lost).catch((e) => e)
      expect(isLeaseLost(refused)).toBe(true)
    })
  })

  it('moves a truncated file aside, reports it, and restores the last good version from .bak', async () => {
    const store = open()
    await store.save({ theme: 'dark', fontSize: 10 })
    await store.save({ theme: 'dark', fontSize: 11 })
    const good = await readFile(file('prefs.json'), 'utf8')
    await writeFile(file('prefs.json'), good.slice(0, good.length - 5))

    const { value, problem } = await open().load()
    expect(value).toEqual({ theme: 'dark', fontSize: 10 })
    expect(problem?.code).toBe('STORAGE_CORRUPT')
    expect(problem?.message).toMatch(/prefs\.json was damaged \(not valid JSON, maybe truncated\)/)
    expect(problem?.movedTo).toBe(file('prefs.corrupt-2026-01-05T14-30-00-000Z.json'))
    expect(await readFile(problem?.movedTo ?? '', 'utf8')).toBe(good.slice(0, good.length - 5))
    // the restored version is back in place for the next start
    expect(await open().load()).toEqual({ value: { theme: 'dark', fontSize: 10 }, problem: null })
  })

  it('falls back to defaults, still reporting, when there is no good backup', async () => {
    await writeFile(file('prefs.json'), envelope(2, { theme: 'purple', fontSize: 12 }))
    const { value, problem } = await open().load()
    expect(value).toEqual(DEFAULTS)
    expect(problem?.message).toMatch(/theme/)
    expect(problem?.message).toMatch(/Started from defaults/)
    expect(await readdir(dir)).toContain('prefs.corrupt-2026-01-05T14-30-00-000Z.json')
  })

  it('never overwrites an earlier corrupt file moved aside in the same millisecond', async () => {
    await writeFile(file('prefs.json'), 'garbage 1')
    await open().load()
    await writeFile(file('prefs.json'), 'garbage 2')
    await open().load()
    const moved = (await readdir(dir)).filter((n) => n.includes('.corrupt-')).sort()
    expect(moved).toHaveLength(2)
  })

  it('treats a file from a newer version as damaged instead of misreading it', async () => {
    await writeFile(file('prefs.json'), envelope(3, DEFAULTS))
    const { problem } = await open().load()
    expect(problem?.message).toMatch(/newer Tickdesk/)
  })

  it('refuses to save an invalid value and leaves the file as it was', async () => {
    const store = open()
    await store.save(DEFAULTS)
    const error = await store.save({ theme: 'dark', fontSize: 1 }).catch((e: unknown) => e)
    expect(isTickdeskError(error) && error.code).toBe('INVALID_INPUT')
    expect((await open().load()).value).toEqual(DEFAULTS)
  })

  it('keeps the previous file when the disk is full, and the next save still works', async () => {
    let full = true
    const realWrite = (await import('./atomic-file')).defaultWriter
    const writer: AtomicWriter = (p, d, m) =>
      full
        ? Promise.reject(Object.assign(new Error('nospace'), { code: 'ENOSPC' }))
        : realWrite(p, d, m)
    await open().save({ theme: 'dark', fontSize: 9 })
    const store = open({ writer })
    await store.load()
    const error = await store.save({ theme: 'light', fontSize: 30 }).catch((e: unknown) => e)
    expect(isTickdeskError(error) && error.code).toBe('DISK_FULL')
    expect((await open().load()).value).toEqual({ theme: 'dark', fontSize: 9 })
    full = false
    await store.save({ theme: 'light', fontSize: 31 })
    expect((await open().load()).value).toEqual({ theme: 'light', fontSize: 31 })
  })

  it('applies queued saves in order', async () => {
    const store = open()
    await Promise.all([8, 9, 10, 11, 12].map((fontSize) => store.save({ theme: 'dark', fontSize })))
    expect((await open().load()).value.fontSize).toBe(12)
    expect(JSON.parse(await readFile(file('prefs.bak.json'), 'utf8')).data.fontSize).toBe(11)
  })

  it('never throws on arbitrary file contents and always returns a valid value', async () => {
    const contents = fc.oneof(
      fc.string(),
      fc.json(),
      fc.jsonValue().map((data) => JSON.stringify({ version: 2, data })),
      fc.record({ version: fc.integer({ min: -1, max: 4 }), data: fc.anything() }).map((o) => {
        try {
          return JSON.stringify(o) ?? ''
        } catch {
          return ''
        }
      }),
      fc.constantFrom(envelope(2, DEFAULTS), envelope(1, { dark: 'yes' }), envelope(1, null)),
    )
    await fc.assert(
      fc.asyncProperty(
        contents,
        fc.constantFrom('none', 'truncated', 'good'),
        async (text, backup) => {
          await rm(dir, { recursive: true, force: true })
          await import('node:fs/promises').then((fs) => fs.mkdir(dir))
          await writeFile(file('prefs.json'), text)
          const good = envelope(2, { theme: 'dark', fontSize: 20 })
          if (backup !== 'none') {
            await writeFile(file('prefs.bak.json'), backup === 'good' ? good : good.slice(0, 9))
          }
          const result = await open().load()
          expect(PrefsV2.safeParse(result.value).success).toBe(true)
          if (result.problem) expect(await readFile(result.problem.movedTo, 'utf8')).toBe(text)
        },
      ),
      { numRuns: 150 },
    )
  })

  describe('outsideChange', () => {
    it('gives the value another writer saved, once, and nothing for our own saves', async () => {
      const mine = open()
      await mine.load()
      await mine.save({ theme: 'dark', fontSize: 14 })
      expect(await mine.outsideChange()).toBeNull()

      // The CLI opens its own store on the same file and saves.
      const cli = open()
      await cli.load()
      await cli.save({ theme: 'light', fontSize: 18 })
      expect(await mine.outsideChange()).toEqual({ theme: 'light', fontSize: 18 })
      expect(await mine.outsideChange()).toBeNull()
    })

    it('gives an edit that keeps the size, made right after a check read the file', async () => {
      const mine = open()
      await mine.load()
      await writeFile(file('prefs.json'), '{"version":2,"data":{"theme":"dark","fontSize":14}}')
      expect(await mine.outsideChange()).toEqual({ theme: 'dark', fontSize: 14 })
      await writeFile(file('prefs.json'), '{"version":2,"data":{"theme":"dark","fontSize":16}}')
      expect(await mine.outsideChange()).toEqual({ theme: 'dark', fontSize: 16 })
      expect(await mine.outsideChange()).toBeNull()
    })

    it('leaves a damaged file alone (no move, no rewrite) and reports no change', async () => {
      const mine = open()
      await mine.load()
      await mine.save({ theme: 'dark', fontSize: 14 })
      await writeFile(file('prefs.json'), '{"version": 2, "da')
      expect(await mine.outsideChange()).toBeNull()
      expect(await readFile(file('prefs.json'), 'utf8')).toBe('{"version": 2, "da')
      expect((await readdir(dir)).filter((n) => n.includes('corrupt'))).toEqual([])
    })

    it('says nothing while a save of ours is under way', async () => {
      let release!: () => void
      const held = new Promise<void>((r) => (release = r))
      const slow: AtomicWriter = async (path, text) => {
        await held
        await writeFile(path, text)
      }
      const mine = open({ writer: slow })
      await mine.load()
      const saving = mine.save({ theme: 'dark', fontSize: 30 })
      await writeFile(file('prefs.json'), envelope(2, { theme: 'light', fontSize: 9 }))
      expect(await mine.outsideChange()).toBeNull()
      release()
      await saving
      expect(await mine.outsideChange()).toBeNull()
    })
  })
})
