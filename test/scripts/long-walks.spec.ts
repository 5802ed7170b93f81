import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import config from '../../vitest.config'
import { LONG_RUN_TARGETS, LONG_WALKS, longRunOnly } from '../long-walks.mjs'

/**
 * The walks npm test leaves to `npm run test:long` are named once, in test/long-walks.mjs: the
 * vitest config and the long-run script read that table and name no walk themselves, so the two
 * cannot drift (a walk left out of npm test and missing from the long run would run nowhere).
 */
const ROOT = resolve(import.meta.dirname, '..', '..')
const READERS = ['vitest.config.ts', 'scripts/test-long.mjs']

describe('the long-run walks', () => {
  it('name files and folders that exist', () => {
    const missing = LONG_WALKS.map((w) => w.path).filter((p) => !existsSync(join(ROOT, p)))
    expect(missing).toEqual([])
  })

  it('leave out of npm test only walks the long run runs, and all of them in the long run', () => {
    const left = longRunOnly({})
    expect(left.length).toBeGreaterThan(0)
    expect(left.filter((p) => !LONG_RUN_TARGETS.includes(p))).toEqual([])
    expect(longRunOnly({ TICKDESK_LONG: '1' })).toEqual([])
    expect(longRunOnly({ TICKDESK_ALL_WALKS: '1' })).toEqual([])
  })

  it('are what the vitest config leaves out of its node project', () => {
    const node = config.test?.projects?.find(
      (p) => typeof p === 'object' && 'test' in p && p.test?.name === 'node',
    )
    const exclude = typeof node === 'object' && 'test' in node ? (node.test?.exclude ?? []) : []
    const expected = process.env.TICKDESK_LONG === '1' ? [] : longRunOnly()
    expect(expected.filter((p) => !exclude.includes(p))).toEqual([])
  })

  it.each(READERS)('are read from the table by %s, which names none of them itself', (file) => {
    const text = readFileSync(join(ROOT, file), 'utf8')
    expect(text).toMatch(/from '\.\.?\/(test\/)?long-walks\.mjs'/)
    const named = LONG_WALKS.map((w) => w.path).filter((p) => text.includes(`'${p}'`))
    expect(named).toEqual([])
  })
})
