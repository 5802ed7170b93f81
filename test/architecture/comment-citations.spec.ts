import { readdirSync, readFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

/**
 * Whatever a comment in shipped code cites must be in the repository: the service's interface by a
 * section of docs/market-data-interface.md ("spec: Limits"), the architecture by a section of
 * docs/architecture.md ("architecture: Secrets"). An issue number, the old design page's name or a
 * "moved out of" note leads a newcomer nowhere (git history holds where code came from).
 */

const ROOT = resolve(import.meta.dirname, '..', '..')
const SHIPPED = /\.(ts|svelte|mjs)$/

export function shippedFiles(dir: string): string[] {
  const out: string[] = []
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name)
    if (e.isDirectory()) {
      if (e.name !== 'testing') out.push(...shippedFiles(path))
    } else if (SHIPPED.test(e.name) && !/\.spec\.ts$/.test(e.name)) out.push(path)
  }
  return out
}

/** The section names of a markdown page (its headings), the part before a parenthesis. */
export function sectionNames(markdown: string): string[] {
  return [...markdown.matchAll(/^#{1,4} +(.+)$/gm)].map((m) =>
    (m[1] as string).replace(/\(.*$/, '').trim().toLowerCase(),
  )
}

/** The comments of a source file: line comments, block comments and Svelte's HTML comments. */
export function commentsOf(source: string): string {
  const parts = source.match(/\/\/[^\n]*|\/\*[\s\S]*?\*\/|<!--[\s\S]*?-->/g) ?? []
  return parts.join('\n').replace(/\n\s*\*\s?/g, ' ')
}

export interface CitationProblem {
  file: string
  text: string
  why: string
}

const FORBIDDEN: [RegExp, string][] = [
  [/\bissues? #?\d+/i, 'cites an issue number'],
  [
    /\bARCHITECTURE\b/,
    'cites the old design page; cite docs/architecture.md as "architecture: Section"',
  ],
  [/\b[Mm]oved (out of|from)\b/, 'says where code moved from; git history holds that'],
  [
    /\.\.\/shared\/(spec|design)\b|\bshared\/spec\/|\bshared\/design\//,
    'cites a path outside the repository',
  ],
]

export function citationProblems(
  file: string,
  comments: string,
  spec: string[],
  architecture: string[],
): CitationProblem[] {
  const out: CitationProblem[] = []
  for (const [pattern, why] of FORBIDDEN) {
    const m = comments.match(pattern)
    if (m) out.push({ file, text: m[0], why })
  }
  const cited = (re: RegExp, sections: string[], page: string): void => {
    for (const m of comments.matchAll(re)) {
      const text = (m[1] as string).toLowerCase()
      if (!sections.some((s) => text.startsWith(s)))
        out.push({ file, text: m[0], why: `names no section of ${page}` })
    }
  }
  cited(/\bspec: ([^)\n]{1,60})/g, spec, 'docs/market-data-interface.md')
  cited(/\barchitecture: ([^)\n]{1,60})/g, architecture, 'docs/architecture.md')
  return out
}

describe('comments in shipped code', () => {
  const spec = sectionNames(readFileSync(join(ROOT, 'docs/market-data-interface.md'), 'utf8'))
  const architecture = sectionNames(readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8'))

  it('cite only what is in the repository: interface and architecture sections by name', () => {
    const problems = ['src', 'scripts', 'bench']
      .flatMap((d) => shippedFiles(join(ROOT, d)))
      .flatMap((f) =>
        citationProblems(
          relative(ROOT, f),
          commentsOf(readFileSync(f, 'utf8')),
          spec,
          architecture,
        ),
      )
    expect(problems).toEqual([])
  })

  it('are held to it: each kind of stray citation is found', () => {
    const check = (comment: string): string[] =>
      citationProblems('x.ts', commentsOf(comment), spec, architecture).map((p) => p.why)
    expect(check('// retried after a 429 (spec: Limits, "Retry-After")')).toEqual([])
    expect(check('/** the key (architecture: Secrets) */')).toEqual([])
    expect(check('// as issue 36 asked')).toEqual(['cites an issue number'])
    expect(check('/* ARCHITECTURE: Logs */')[0]).toMatch(/old design page/)
    expect(check('// Moved out of engine.ts')[0]).toMatch(/git history/)
    expect(check('// see ../shared/spec/market-data-interface.md')[0]).toMatch(/outside/)
    expect(check('// (spec: Pagination)')[0]).toMatch(/no section/)
    expect(check('// (architecture: Plugins)')[0]).toMatch(/no section/)
    expect(check('const s = "issue 4" // no comment cites it')).toEqual([])
  })
})
