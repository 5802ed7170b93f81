import { mkdirSync, mkdtempSync, readdirSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { MAX_OTHER_SOURCES, pruneSourceCaches } from './source-caches'

/** A data folder with a quote cache (and its .bak) and a bars folder per source, aged in order. */
function folderWith(ids: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'tickdesk-caches-'))
  ids.forEach((id, i) => {
    const at = new Date(Date.UTC(2026, 10, 1, 0, i))
    for (const name of [`quotes-cache.${id}.json`, `quotes-cache.${id}.bak.json`]) {
      writeFileSync(join(dir, name), '[]')
      utimesSync(join(dir, name), at, at)
    }
    mkdirSync(join(dir, 'bars', id), { recursive: true })
    utimesSync(join(dir, 'bars', id), at, at)
  })
  writeFileSync(join(dir, 'quotes-cache.old_example-1234567890.corrupt-1.json'), '{')
  writeFileSync(join(dir, 'settings.json'), '{}')
  return dir
}

describe('the caches kept per source', () => {
  it('keeps the sources named and the few used last, and deletes the rest with their bars', async () => {
    const ids = ['demo', 'a-1', 'b-2', 'c-3', 'd-4', 'e-5', 'f-6']
    const dir = folderWith(ids)
    const dropped = await pruneSourceCaches(dir, ['demo', 'b-2'])
    expect(dropped.sort()).toEqual(['a-1', 'c-3'])
    const left = readdirSync(dir).sort()
    expect(left).toContain('quotes-cache.b-2.json')
    expect(left).toContain('quotes-cache.f-6.bak.json')
    expect(left).not.toContain('quotes-cache.a-1.json')
    expect(left).not.toContain('quotes-cache.a-1.bak.json')
    expect(left).toContain('quotes-cache.old_example-1234567890.corrupt-1.json')
    expect(left).toContain('settings.json')
    expect(readdirSync(join(dir, 'bars')).sort()).toEqual(['b-2', 'd-4', 'demo', 'e-5', 'f-6'])
    expect(MAX_OTHER_SOURCES).toBe(3)
  })

  it('deletes nothing while there are no more sources than it keeps, and takes a folder with none', async () => {
    const dir = folderWith(['demo', 'a-1', 'b-2'])
    expect(await pruneSourceCaches(dir, ['demo'])).toEqual([])
    expect(await pruneSourceCaches(join(dir, 'missing'), [])).toEqual([])
  })
})
