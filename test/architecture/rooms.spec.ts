import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'

/**
 * Each folder under src/, scripts/, bench/ and test/ is a room a newcomer can walk: no more than
 * MAX_SIDE_BY_SIDE source files side by side (past that, prefixes start standing in for
 * folders), and a folder of README_FROM files or more has a README.md whose concept -> file table
 * names every source file of the folder, in backticks, and names no file that is not there. A file added, moved or renamed
 * without its README fails here, with the folder and the names to add or drop.
 *
 * A backticked name without a slash (`quote-store.ts`) is a file of the README's own folder; one
 * with a slash is a path and must exist too, read from the README's folder (`../testing/x.ts`),
 * the repository's root (`test/e2e/chart-studies.spec.ts`) or src (`shared/quote.ts`). A glob
 * (`*.spec.ts`) names a kind of file and is not checked.
 */

const ROOT = resolve(import.meta.dirname, '..', '..')

/**
 * Rooms whose README is being rewritten on another branch, exempt from the naming checks only (a
 * README must still be there, and the size cap holds): folder -> why. Each entry is to be removed
 * when that branch lands; 'exempts only rooms that still need it' fails once one passes on its own.
 */
export const PENDING: Record<string, string> = {}
export const MAX_SIDE_BY_SIDE = 20
export const README_FROM = 5

/** Source as the rooms count it: code a reader opens, specs aside (they sit beside their file). */
const SOURCE = /\.(ts|svelte|mjs)$/
const isSource = (name: string): boolean => SOURCE.test(name) && !name.endsWith('.spec.ts')

/** Every folder under `src`, as a path from the root with forward slashes, `src` itself included. */
export function srcFolders(root: string, folder = 'src'): string[] {
  const subs = readdirSync(join(root, folder), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => `${folder}/${e.name}`)
  return [folder, ...subs.flatMap((sub) => srcFolders(root, sub))]
}

/** The folder's own files (not its subfolders'), by name. */
function filesIn(root: string, folder: string): string[] {
  return readdirSync(join(root, folder), { withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name)
    .sort()
}

/** File names and paths a README names in backticks: anything ending in a source extension. */
export function namedFiles(readme: string): string[] {
  const found = new Set<string>()
  for (const [, name = ''] of readme.matchAll(/`([^`\s]+)`/g)) {
    // A glob (`*.spec.ts`, `alerts-*.spec.ts`) names a kind of file, not one.
    if (SOURCE.test(name) && !name.includes('*')) found.add(name)
  }
  return [...found].sort()
}

/** What to fix in one folder, each line saying where and what; empty when the room is in order. */
export function roomProblems(root: string, folder: string, exempt = false): string[] {
  const files = filesIn(root, folder)
  const sources = files.filter(isSource)
  const problems: string[] = []
  if (sources.length > MAX_SIDE_BY_SIDE) {
    problems.push(
      `${folder}: ${sources.length} source files side by side (at most ${MAX_SIDE_BY_SIDE}); cut it into rooms by concept`,
    )
  }
  if (sources.length < README_FROM) return problems
  const readmePath = join(root, folder, 'README.md')
  if (!existsSync(readmePath)) {
    problems.push(
      `${folder}: ${sources.length} source files and no README.md; write one in the form of src/renderer/src/chart/README.md`,
    )
    return problems
  }
  if (exempt) return problems
  const named = namedFiles(readFileSync(readmePath, 'utf8'))
  const unnamed = sources.filter((f) => !named.includes(f))
  if (unnamed.length > 0) {
    problems.push(
      `${folder}/README.md: add to its table ${unnamed.map((f) => `\`${f}\``).join(', ')}`,
    )
  }
  const stale = named.filter((n) => {
    if (!n.includes('/')) return !files.includes(n)
    return ![join(root, folder), root, join(root, 'src')].some((from) => existsSync(join(from, n)))
  })
  if (stale.length > 0) {
    problems.push(
      `${folder}/README.md: names files that do not exist, fix or drop ${stale.map((f) => `\`${f}\``).join(', ')}`,
    )
  }
  return problems
}

/** The trees whose folders are rooms: the shipped code, and the scripts, benches and tests beside it. */
export const ROOM_TREES = ['src', 'scripts', 'bench', 'test']

describe('rooms under src, scripts, bench and test', () => {
  it(`hold at most ${MAX_SIDE_BY_SIDE} source files side by side, and from ${README_FROM} on a README that names exactly their files`, () => {
    const problems = ROOM_TREES.flatMap((tree) => srcFolders(ROOT, tree)).flatMap((folder) =>
      roomProblems(ROOT, folder, folder in PENDING),
    )
    expect(problems).toEqual([])
  })

  it('exempts only rooms that still need it', () => {
    const done = Object.keys(PENDING)
      .filter((folder) => existsSync(join(ROOT, folder)) && roomProblems(ROOT, folder).length === 0)
      .map((folder) => `${folder} passes on its own now: remove it from PENDING`)
    const gone = Object.keys(PENDING)
      .filter((folder) => !existsSync(join(ROOT, folder)))
      .map((folder) => `${folder} no longer exists: remove it from PENDING`)
    expect([...done, ...gone]).toEqual([])
  })

  describe('the check itself', () => {
    let dir = ''
    afterEach(() => rmSync(dir, { recursive: true, force: true }))

    function tree(files: Record<string, string>): string {
      dir = mkdtempSync(join(tmpdir(), 'tickdesk-rooms-'))
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, path)), { recursive: true })
        writeFileSync(join(dir, path), text)
      }
      return dir
    }

    const room = (names: string[]): Record<string, string> =>
      Object.fromEntries(names.map((n) => [`src/core/room/${n}`, '']))
    const five = ['a.ts', 'b.ts', 'c.svelte', 'd.mjs', 'e.ts']
    const allProblems = (root: string): string[] =>
      srcFolders(root).flatMap((f) => roomProblems(root, f))

    it('passes a room whose README names each of its files, specs and paths that exist aside', () => {
      const root = tree({
        ...room([...five, 'a.spec.ts']),
        'src/core/room/README.md':
          '| `a.ts`, `b.ts` | `c.svelte` | `d.mjs` | `e.ts` |\nTests: `a.spec.ts`, `../other/x.ts`, `test/t.spec.ts`',
        'src/core/other/x.ts': '',
        'test/t.spec.ts': '',
      })
      expect(allProblems(root)).toEqual([])
    })

    it('leaves a folder of four files without a README alone, and asks one of a fifth', () => {
      const four = tree(room(five.slice(0, 4)))
      expect(allProblems(four)).toEqual([])
      rmSync(dir, { recursive: true, force: true })
      const root = tree(room(five))
      expect(allProblems(root)).toEqual([
        'src/core/room: 5 source files and no README.md; write one in the form of src/renderer/src/chart/README.md',
      ])
    })

    it('names the files a README leaves out and the ones it names that are gone', () => {
      const root = tree({
        ...room(five),
        'src/core/room/README.md': '`a.ts` `b.ts` `c.svelte` `gone.ts` `../moved/f.ts` `src/x.ts`',
      })
      expect(allProblems(root)).toEqual([
        'src/core/room/README.md: add to its table `d.mjs`, `e.ts`',
        'src/core/room/README.md: names files that do not exist, fix or drop `../moved/f.ts`, `gone.ts`, `src/x.ts`',
      ])
    })

    it('counts no spec, README or asset as a source file, and finds a crowded folder', () => {
      const names = Array.from({ length: 21 }, (_, i) => `f${i}.ts`)
      const readme = (n: string[]): string => n.map((f) => `\`${f}\``).join(' ')
      const twenty = tree({
        ...room(names.slice(0, 20)),
        ...room(['f0.spec.ts', 'app.css', 'index.html', 'list.json']),
        'src/core/room/README.md': readme(names.slice(0, 20)),
      })
      expect(allProblems(twenty)).toEqual([])
      writeFileSync(join(twenty, 'src/core/room/f20.ts'), '')
      writeFileSync(join(twenty, 'src/core/room/README.md'), readme(names))
      expect(allProblems(twenty)).toEqual([
        'src/core/room: 21 source files side by side (at most 20); cut it into rooms by concept',
      ])
    })
  })
})
