import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'

/**
 * The spec files that replace a module (vi.mock). The node and renderer projects share one module
 * graph per worker across files (isolate: false, which cut their import and DOM set-up time by
 * most of it), and a module replaced for one file would then be the replaced one, or the real one,
 * for whichever file the worker runs next. These files run in projects of their own that give
 * each file a fresh graph; found by reading the files, so a new mock needs no list kept by hand.
 */
export function specsThatMockModules(root: string, folders: string[]): string[] {
  const found: string[] = []
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(path)
      } else if (
        entry.name.endsWith('.spec.ts') &&
        /\bvi\.(do)?mock\(/.test(readFileSync(path, 'utf8'))
      ) {
        found.push(relative(root, path))
      }
    }
  }
  for (const folder of folders) walk(join(root, folder))
  return found.sort()
}
