import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  prepareElectronKeytar,
  probeWith,
  type Attempt,
  type ElectronKeytarDeps,
  type Runtime,
} from '../../scripts/electron-keytar'
import { ELECTRON_KEYTAR_DIR } from '../../src/main/electron-keytar'

/**
 * The keytar-for-Electron step. The Electron runtime cannot run here, so Node stands in for it:
 * `probeWith` really loads keytar in a child process with ELECTRON_RUN_AS_NODE=1, exactly as it
 * runs Electron. The native build (node-gyp against Electron's headers, which need the network)
 * is replaced by copying npm's build, so the staged copy really loads afterwards.
 */
const ROOT = resolve(import.meta.dirname, '..', '..')
const KEYTAR = join(ROOT, 'node_modules', 'keytar')
const hasKeytar = existsSync(join(KEYTAR, 'build', 'Release', 'keytar.node'))
const node: Runtime = { path: process.execPath, version: '45.4.1' }

let root: string
let lines: string[]
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'tickdesk-ekeytar-'))
  lines = []
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

function deps(over: Partial<ElectronKeytarDeps> = {}): ElectronKeytarDeps & { probed: string[] } {
  const probed: string[] = []
  return {
    root,
    electron: node,
    keytarDir: KEYTAR,
    keytarVersion: '7.9.0',
    probe: (runtime, dir) => {
      probed.push(dir)
      return probeWith(runtime, dir)
    },
    build: () => ({ ok: false, detail: 'not expected' }),
    log: (line) => lines.push(line),
    ...over,
    probed,
  }
}

const copyOfNpmBuild = (_runtime: Runtime, dir: string): Attempt => {
  cpSync(join(KEYTAR, 'build'), join(dir, 'build'), { recursive: true })
  return { ok: true, detail: '' }
}

describe('keytar for Electron', () => {
  it('skips in one line where there is no Electron runtime, touching nothing', () => {
    expect(prepareElectronKeytar(deps({ electron: null }))).toBe('no-electron')
    expect(lines).toEqual([
      expect.stringMatching(/^keytar for Electron: no Electron runtime here, skipped/),
    ])
    expect(existsSync(join(root, 'node_modules'))).toBe(false)
  })

  it('skips in one line where keytar did not install', () => {
    expect(prepareElectronKeytar(deps({ keytarDir: null }))).toBe('no-keytar')
    expect(lines).toHaveLength(1)
  })

  it.skipIf(!hasKeytar)('keeps the npm build when the runtime loads it, and remembers that', () => {
    const first = deps()
    expect(prepareElectronKeytar(first)).toBe('as-built')
    expect(first.probed).toEqual([KEYTAR])
    expect(existsSync(join(root, ELECTRON_KEYTAR_DIR))).toBe(false)
    const again = deps()
    expect(prepareElectronKeytar(again)).toBe('up-to-date')
    expect(again.probed).toEqual([])
    // A new Electron version is asked again.
    const upgraded = deps({ electron: { ...node, version: '46.0.0' } })
    expect(prepareElectronKeytar(upgraded)).toBe('as-built')
  })

  it.skipIf(!hasKeytar)(
    'builds a second copy for the runtime when the npm build does not load, leaving node_modules/keytar alone',
    () => {
      const d = deps({
        probe: (runtime, dir) =>
          dir === KEYTAR
            ? { ok: false, detail: 'was compiled against a different Node.js version' }
            : probeWith(runtime, dir),
        build: copyOfNpmBuild,
      })
      expect(prepareElectronKeytar(d)).toBe('rebuilt')
      const copy = join(root, ELECTRON_KEYTAR_DIR)
      expect(existsSync(join(copy, 'build', 'Release', 'keytar.node'))).toBe(true)
      expect(JSON.parse(readFileSync(join(copy, 'package.json'), 'utf8'))).toMatchObject({
        name: 'keytar',
      })
      expect(lines.at(-1)).toMatch(/rebuilt for Electron 45\.4\.1/)
      expect(prepareElectronKeytar(deps())).toBe('up-to-date')
      // A removed copy is built again.
      rmSync(copy, { recursive: true })
      expect(prepareElectronKeytar(d)).toBe('rebuilt')
    },
  )

  it('says so in one line and leaves no half-built copy when the build fails', () => {
    mkdirSync(join(root, 'fake-keytar'))
    writeFileSync(join(root, 'fake-keytar', 'package.json'), '{"name":"keytar","main":"index.js"}')
    writeFileSync(
      join(root, 'fake-keytar', 'index.js'),
      "throw new Error('NODE_MODULE_VERSION 115')",
    )
    const d = deps({
      keytarDir: join(root, 'fake-keytar'),
      build: () => ({
        ok: false,
        detail: 'gyp ERR! stack Error: 404 response downloading headers\nmore',
      }),
    })
    expect(prepareElectronKeytar(d)).toBe('failed')
    expect(lines).toEqual([
      expect.stringMatching(
        /could not build keytar for Electron 45\.4\.1 \(gyp ERR! stack Error: 404 response downloading headers\); the app keeps the key with safeStorage or in memory/,
      ),
    ])
    expect(existsSync(join(root, ELECTRON_KEYTAR_DIR))).toBe(false)
    // Not retried at every start; --force retries.
    expect(prepareElectronKeytar(deps({ keytarDir: join(root, 'fake-keytar') }))).toBe('up-to-date')
    expect(prepareElectronKeytar({ ...d, force: true })).toBe('failed')
  })
})
