/**
 * No import circles (architecture: Layers): builds the import graph of src/ from the
 * TypeScript and Svelte sources (static, type-only, re-exports and literal dynamic imports alike)
 * and reports every strongly connected group of files. `npm run lint` runs it after ESLint;
 * test/architecture/import-cycles.spec.ts runs it on fixtures and on the real tree.
 *
 * KNOWN_CYCLES lists the circles the codebase still has (none today), each with the change that
 * removes it (`until`). The check fails on any other circle, and on a listed one that is gone, so
 * the list cannot go stale.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'

export const KNOWN_CYCLES: ReadonlyArray<{ files: string[]; until: string }> = []

const SOURCE = /\.(ts|svelte)$/
const CANDIDATE_SUFFIXES = ['', '.ts', '.svelte', '/index.ts']

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : sourceFiles(path)
    return SOURCE.test(name) && !name.endsWith('.d.ts') ? [path] : []
  })
}

function scriptText(path: string): string {
  const text = readFileSync(path, 'utf8')
  if (!path.endsWith('.svelte')) return text
  return [...text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join('\n')
}

function resolveImport(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null
  const base = resolve(dirname(from), specifier)
  for (const suffix of CANDIDATE_SUFFIXES) {
    const candidate = base + suffix
    if (SOURCE.test(candidate) && existsSync(candidate) && statSync(candidate).isFile())
      return candidate
  }
  return null
}

/** File -> the files it imports, all under `root`, as paths relative to `cwd`. */
export function importGraph(root: string, cwd = process.cwd()): Map<string, string[]> {
  const graph = new Map<string, string[]>()
  for (const file of sourceFiles(root)) {
    const info = ts.preProcessFile(scriptText(file), true, true)
    const targets = info.importedFiles
      .map((f) => resolveImport(file, f.fileName))
      .filter((t): t is string => t !== null)
      .map((t) => relative(cwd, t).split(sep).join('/'))
    graph.set(relative(cwd, file).split(sep).join('/'), [...new Set(targets)])
  }
  return graph
}

/** Tarjan's strongly connected components; a group of 2+ files (or a self-import) is a circle. */
export function findCycles(graph: Map<string, string[]>): string[][] {
  let next = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const cycles: string[][] = []
  const visit = (node: string): void => {
    index.set(node, next)
    low.set(node, next++)
    stack.push(node)
    onStack.add(node)
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to)
        low.set(node, Math.min(low.get(node)!, low.get(to)!))
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!))
    }
    if (low.get(node) !== index.get(node)) return
    const group: string[] = []
    let member: string
    do {
      member = stack.pop()!
      onStack.delete(member)
      group.push(member)
    } while (member !== node)
    if (group.length > 1 || (graph.get(node) ?? []).includes(node)) cycles.push(group.sort())
  }
  for (const node of graph.keys()) if (!index.has(node)) visit(node)
  return cycles.sort((a, b) => a[0]!.localeCompare(b[0]!))
}

export interface CycleReport {
  unexpected: string[][]
  /** Listed in KNOWN_CYCLES but no longer there: remove them from the list. */
  gone: string[][]
}

export function checkCycles(
  cycles: string[][],
  known: ReadonlyArray<{ files: string[] }> = KNOWN_CYCLES,
): CycleReport {
  const key = (files: string[]): string => [...files].sort().join(' <-> ')
  const knownKeys = new Set(known.map((k) => key(k.files)))
  const foundKeys = new Set(cycles.map(key))
  return {
    unexpected: cycles.filter((c) => !knownKeys.has(key(c))),
    gone: known.filter((k) => !foundKeys.has(key(k.files))).map((k) => k.files),
  }
}

const isEntry =
  process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)
if (isEntry) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
  const report = checkCycles(findCycles(importGraph(join(root, 'src'), root)))
  for (const c of report.unexpected) console.error(`import circle: ${c.join(' <-> ')}`)
  for (const c of report.gone)
    console.error(`no longer a circle, remove it from KNOWN_CYCLES: ${c.join(' <-> ')}`)
  if (report.unexpected.length + report.gone.length > 0) process.exit(1)
  console.log(
    `No new import circles under src/ (${KNOWN_CYCLES.length} known, listed with their issue).`,
  )
}
