import { readdirSync, readFileSync } from 'node:fs'
import { join, sep } from 'node:path'

/**
 * The spec files that replace a module (vi.mock). The node and renderer projects share one module
 * graph per worker across files (isolate: false, which cut their import and DOM set-up time by
 * most of it), and a module replaced for one file would then be the replaced one, or the real one,
 * for whichever file the worker runs next. These files run in projects of their own that give
 * each file a fresh graph; found by reading the files, so a new mock needs no list kept by hand.
 */
export function specsThatMockModules(root: string, folders: string[]): string[] {
  return folders
    .flatMap((folder) =>
      readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' }).map((f) =>
        join(folder, f),
      ),
    )
    .filter(
      (path) =>
        path.endsWith('.spec.ts') &&
        !path.split(sep).includes('node_modules') &&
        /\bvi\.(do)?mock\(/.test(readFileSync(join(root, path), 'utf8')),
    )
    .sort()
}
