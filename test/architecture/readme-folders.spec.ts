import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'

/**
 * The README's Architecture section is the map a newcomer reads first: every src path it names must
 * exist, and every src folder must be named in it, so the map cannot drift from the tree unnoticed.
 * "Every folder" means the top-level folders and the ones directly inside them; `testing/` folders
 * (test-only code, named once as a kind) and the renderer's own tree below src/renderer/src are left
 * to their own headers.
 */

const ROOT = resolve(import.meta.dirname, '..', '..')

export function architectureSection(readme: string): string {
  const start = readme.search(/^## Architecture\s*$/m)
  if (start < 0) return ''
  const rest = readme.slice(start + 1)
  const next = rest.search(/^## /m)
  return next < 0 ? rest : rest.slice(0, next)
}

/** Paths under src/ the text names, without a trailing slash or punctuation. */
export function namedSrcPaths(text: string): string[] {
  const found = new Set<string>()
  for (const m of text.matchAll(/\bsrc\/[A-Za-z0-9_./-]*[A-Za-z0-9_]/g)) found.add(m[0])
  return [...found].sort()
}

/** src/X and src/X/Y folders, except `testing` folders and src/renderer's inner tree. */
export function srcFolders(root: string): string[] {
  const dirs = (path: string): string[] =>
    readdirSync(join(root, path), { withFileTypes: true })
      .filter((e) => e.isDirectory() && e.name !== 'testing')
      .map((e) => `${path}/${e.name}`)
  const out: string[] = []
  for (const top of dirs('src')) {
    out.push(top)
    out.push(...dirs(top))
  }
  return out.sort()
}

export function mapProblems(
  root: string,
  readme: string,
): { missing: string[]; unnamed: string[] } {
  const named = namedSrcPaths(architectureSection(readme))
  const missing = named.filter((p) => !existsSync(join(root, p)))
  const unnamed = srcFolders(root).filter((f) => !named.includes(f))
  return { missing, unnamed }
}

describe("the README's architecture section", () => {
  it('names every src folder, and every src path it names exists', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
    expect(architectureSection(readme)).not.toBe('')
    expect(mapProblems(ROOT, readme)).toEqual({ missing: [], unnamed: [] })
  })

  describe('the check itself', () => {
    let dir = ''
    afterEach(() => rmSync(dir, { recursive: true, force: true }))

    function tree(folders: string[]): string {
      dir = mkdtempSync(join(tmpdir(), 'tickdesk-readme-map-'))
      for (const f of folders) mkdirSync(join(dir, f), { recursive: true })
      return dir
    }

    const readmeNaming = (body: string): string =>
      `# T\n\n## Usage\n\nsrc/elsewhere is outside the section\n\n## Architecture\n\n${body}\n\n## Next\n\nsrc/later\n`

    it('finds a folder the section does not name, and a named path that is gone', () => {
      const root = tree(['src/app/testing', 'src/app/logs', 'src/core', 'src/new-layer'])
      const problems = mapProblems(root, readmeNaming('src/app, src/app/logs, src/core, src/gone.'))
      expect(problems).toEqual({ missing: ['src/gone'], unnamed: ['src/new-layer'] })
    })

    it('reads only the Architecture section', () => {
      const readme = readmeNaming('src/core')
      expect(namedSrcPaths(architectureSection(readme))).toEqual(['src/core'])
    })
  })
})
