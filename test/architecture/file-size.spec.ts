import { readdirSync, readFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

/**
 * Small modules with one job: no file under src/, test/, scripts/ or bench/ is over 400 lines. A
 * file that grows past it has taken on a second job and is split by concept, specs and testing/
 * helpers included. The only exceptions are data tables, where the length is the data and splitting
 * it would scatter one table over files; each is listed here with why.
 */

const ROOT = resolve(import.meta.dirname, '..', '..')
const MAX_LINES = 400

/** Data tables allowed over MAX_LINES: path from the repository root -> why it is one table. */
const DATA_TABLES: Record<string, string> = {}

/** Source as the duplicates and lint tools see it: code and style, not JSON or Markdown. */
const SOURCE = /\.(ts|svelte|mjs|cjs|js|css|html)$/

function sourceFiles(dir: string): string[] {
  const out: string[] = []
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name)
    if (e.isDirectory()) out.push(...sourceFiles(path))
    else if (SOURCE.test(e.name)) out.push(relative(ROOT, path).split('\\').join('/'))
  }
  return out
}

/** Lines as `wc -l` counts them: a last line without a newline still counts. */
export function lineCount(text: string): number {
  if (text === '') return 0
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0)
}

describe('file size', () => {
  const sizes = new Map(
    ['src', 'test', 'scripts', 'bench']
      .flatMap((dir) => sourceFiles(join(ROOT, dir)))
      .map((f) => [f, lineCount(readFileSync(join(ROOT, f), 'utf8'))]),
  )

  it(`keeps every source file at ${MAX_LINES} lines or fewer, data tables aside`, () => {
    const over = [...sizes]
      .filter(([file, lines]) => lines > MAX_LINES && !(file in DATA_TABLES))
      .map(([file, lines]) => `${file}: ${lines} lines`)
    expect(over).toEqual([])
  })

  it('lists only data tables that exist and need the exception', () => {
    const stale = Object.keys(DATA_TABLES).filter((f) => (sizes.get(f) ?? 0) <= MAX_LINES)
    expect(stale).toEqual([])
  })

  it('counts lines the way wc -l does', () => {
    expect(lineCount('')).toBe(0)
    expect(lineCount('a\n')).toBe(1)
    expect(lineCount('a\nb')).toBe(2)
    expect(lineCount('a\n\nb\n')).toBe(3)
  })
})
