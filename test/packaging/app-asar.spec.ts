import { existsSync, readFileSync, rmSync, statSync } from 'node:fs'
import { dirname, join, posix } from 'node:path'
import { extractFile, listPackage, statFile } from '@electron/asar'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AppFolder, packAppFolder, ROOT } from './app-folder'

/**
 * A packaging mistake fails here instead of at a trader's first launch: the app folder electron-builder
 * makes from electron-builder.yml (test/packaging/app-folder.ts, no Electron binary needed) holds what
 * the app loads, the production modules and nothing else, the keychain addon outside the archive
 * (a .node file cannot be loaded from inside app.asar) and the icons src/main/host.ts reads from
 * process.resourcesPath.
 */

/**
 * keytar's declared dependencies are install-time only: prebuild-install fetches or builds the addon
 * (its `install` script), node-addon-api is C++ headers for that build. At run time keytar requires
 * build/Release/keytar.node and nothing else.
 */
const INSTALL_TIME: Record<string, readonly string[]> = {
  keytar: ['prebuild-install', 'node-addon-api'],
}

interface Pkg {
  name: string
  version: string
  main?: string
  dependencies?: Record<string, string>
  optionalDependencies?: Record<string, string>
}

type Reader = (path: string) => Pkg | null

/** Node's lookup: the module's own node_modules, then each parent's, up to the root. */
function resolveModule(read: Reader, fromDir: string, name: string): string | null {
  for (let dir = fromDir; ; dir = posix.dirname(posix.dirname(dir))) {
    const candidate = posix.join(dir, 'node_modules', name)
    if (read(posix.join(candidate, 'package.json'))) return candidate
    if (dir === '' || dir === '.' || dir === '/') return null
  }
}

/** Every module the app needs at run time, as package dir -> version, resolved in one tree. */
function runtimeModules(read: Reader, root: string): Map<string, string> {
  const found = new Map<string, string>()
  const top = read(posix.join(root, 'package.json'))
  const visit = (fromDir: string, names: string[]): void => {
    for (const name of names) {
      const dir = resolveModule(read, fromDir, name)
      if (dir === null) {
        found.set(`${fromDir} -> ${name}`, 'MISSING')
        continue
      }
      const pkg = read(posix.join(dir, 'package.json'))
      if (!pkg || found.has(dir)) continue
      found.set(dir, pkg.version)
      const skip = INSTALL_TIME[pkg.name] ?? []
      visit(
        dir,
        Object.keys(pkg.dependencies ?? {}).filter((d) => !skip.includes(d)),
      )
    }
  }
  visit(root, [
    ...Object.keys(top?.dependencies ?? {}),
    ...Object.keys(top?.optionalDependencies ?? {}),
  ])
  return found
}

const readJson = (text: string): Pkg => JSON.parse(text) as Pkg

let app: AppFolder
let files: Set<string>
const inAsar = (path: string): boolean => files.has(`/${path}`)
const asarReader: Reader = (path) => {
  const p = path.replace(/^\/+/, '')
  return inAsar(p) ? readJson(extractFile(app.asar, p).toString('utf8')) : null
}
const repoReader: Reader = (path) => {
  const full = join(ROOT, path)
  return existsSync(full) ? readJson(readFileSync(full, 'utf8')) : null
}

beforeAll(async () => {
  app = await packAppFolder()
  files = new Set(listPackage(app.asar, { isPack: false }).map((f) => f.replaceAll('\\', '/')))
}, 180_000)
afterAll(() => {
  if (app) rmSync(dirname(app.appDir), { recursive: true, force: true })
})

describe('the packaged app folder (electron-builder --dir with a stand-in Electron)', () => {
  it('holds the main, preload and renderer the app starts from', () => {
    const pkg = readJson(extractFile(app.asar, 'package.json').toString('utf8'))
    expect(pkg.main).toBe('out/main/index.js')
    expect(inAsar('out/main/index.js')).toBe(true)
    expect(inAsar('out/preload/index.cjs')).toBe(true)
    expect(inAsar('out/renderer/index.html')).toBe(true)
    const html = extractFile(app.asar, 'out/renderer/index.html').toString('utf8')
    const assets = [...html.matchAll(/(?:src|href)="\.?\/?(assets\/[^"]+)"/g)].map((m) => m[1])
    expect(assets.length).toBeGreaterThan(0)
    for (const asset of assets) expect(inAsar(`out/renderer/${asset}`), asset).toBe(true)
  })

  it('carries the production modules, each at the version the checkout runs, and nothing else', () => {
    const packed = new Map(
      [...files]
        .filter((f) => /^\/(?:.*\/)?node_modules\/(?:@[^/]+\/)?[^/@][^/]*\/package\.json$/.test(f))
        .map((f) => posix.dirname(f).slice(1))
        .filter((dir) => asarReader(posix.join(dir, 'package.json'))?.version !== undefined)
        .map((dir) => [dir, asarReader(posix.join(dir, 'package.json'))?.version ?? '']),
    )
    const needed = runtimeModules(asarReader, '')
    expect([...needed].filter(([, v]) => v === 'MISSING')).toEqual([])
    // What the asar resolves is what the checkout resolves: a hoisting mistake shows as a version.
    const byName = (m: Map<string, string>): Record<string, string> =>
      Object.fromEntries([...m].map(([dir, v]) => [dir.split('node_modules/').pop() ?? dir, v]))
    expect(byName(needed)).toEqual(byName(runtimeModules(repoReader, '')))
    expect([...packed.keys()].sort()).toEqual([...needed.keys()].sort())
  })

  it('keeps keytar.node outside the archive, where the addon can be loaded', () => {
    const addon = 'node_modules/keytar/build/Release/keytar.node'
    expect(statFile(app.asar, addon)).toMatchObject({ unpacked: true })
    expect(statSync(join(app.resources, 'app.asar.unpacked', addon)).size).toBeGreaterThan(0)
  })

  it('puts the window and tray icons beside app.asar (process.resourcesPath)', () => {
    for (const icon of [
      'icon.png',
      'tray-icon.png',
      'tray-iconTemplate.png',
      'tray-iconTemplate@2x.png',
    ])
      expect(statSync(join(app.resources, icon)).size, icon).toBeGreaterThan(0)
  })
})
