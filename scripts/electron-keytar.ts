/**
 * keytar for the Electron app under `npm start` (architecture: Secrets).
 *
 * One node_modules/keytar cannot serve two runtimes if its addon is tied to one ABI: the browser
 * host and the CLI run it under Node, the Electron host under Electron. keytar 7 is a Node-API
 * addon, which is meant to load in both, so this step first asks Electron itself (in Node mode,
 * ELECTRON_RUN_AS_NODE=1) to load the copy npm built. Only if that fails does it build a second
 * copy for Electron's headers into node_modules/.tickdesk-electron/node_modules/keytar, which the
 * Electron host loads first (src/main/electron-keytar.ts); node_modules/keytar stays Node's.
 * Packaged apps need neither: electron-builder rebuilds node_modules for Electron when packaging.
 *
 * Where no Electron runtime is installed (CI, the build machines) it says so in one line and
 * exits 0. A stamp remembers the answer per Electron and keytar version, so `npm start` pays for
 * the probe once.
 *
 * Run: npm run keytar:electron   (scripts/start.mjs runs it before launching Electron)
 */
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ELECTRON_KEYTAR_DIR as ELECTRON_KEYTAR } from '../src/main/electron-keytar'

const STAMP = join(dirname(dirname(ELECTRON_KEYTAR)), 'stamp.json')

export interface Runtime {
  path: string
  version: string
}

export interface Attempt {
  ok: boolean
  detail: string
}

export interface ElectronKeytarDeps {
  root: string
  /** The Electron runtime binary, or null where it is not installed. */
  electron: Runtime | null
  /** node_modules/keytar, or null when the optional dependency did not install. */
  keytarDir: string | null
  keytarVersion: string
  /** Loads `moduleDir` with the runtime in Node mode. */
  probe(runtime: Runtime, moduleDir: string): Attempt
  /** Builds the addon in `moduleDir` for the runtime's headers. */
  build(runtime: Runtime, moduleDir: string): Attempt
  log(line: string): void
  /** Ignore the stamp (after a failed build, once the network or compiler is back). */
  force?: boolean
}

export type Outcome = 'no-keytar' | 'no-electron' | 'up-to-date' | 'as-built' | 'rebuilt' | 'failed'

export function prepareElectronKeytar(deps: ElectronKeytarDeps): Outcome {
  const say = (line: string): void => deps.log(`keytar for Electron: ${line}`)
  if (!deps.keytarDir) {
    say('keytar is not installed (optional dependency); the app will say where it keeps the key.')
    return 'no-keytar'
  }
  if (!deps.electron) {
    say('no Electron runtime here, skipped (the browser host and CLI use keytar built for Node).')
    return 'no-electron'
  }
  const stampFile = join(deps.root, STAMP)
  const wanted = { electron: deps.electron.version, keytar: deps.keytarVersion }
  const stamp = readStamp(stampFile)
  const copy = join(deps.root, ELECTRON_KEYTAR)
  const known =
    stamp?.electron === wanted.electron &&
    stamp.keytar === wanted.keytar &&
    (stamp.outcome !== 'rebuilt' || existsSync(join(copy, 'package.json')))
  if (known && !deps.force) return 'up-to-date'
  const asBuilt = deps.probe(deps.electron, deps.keytarDir)
  if (asBuilt.ok) {
    rmSync(copy, { recursive: true, force: true })
    writeStamp(stampFile, { ...wanted, outcome: 'as-built' })
    say(
      `Electron ${deps.electron.version} loads keytar as npm built it (Node-API); nothing to rebuild.`,
    )
    return 'as-built'
  }
  rmSync(copy, { recursive: true, force: true })
  mkdirSync(dirname(copy), { recursive: true })
  cpSync(deps.keytarDir, copy, {
    recursive: true,
    filter: (src) => !src.startsWith(join(deps.keytarDir as string, 'build')),
  })
  const built = deps.build(deps.electron, copy)
  const loads = built.ok ? deps.probe(deps.electron, copy) : built
  if (!loads.ok) {
    rmSync(copy, { recursive: true, force: true })
    // Remembered, so each start does not retry a build that needs the network or a compiler.
    writeStamp(stampFile, { ...wanted, outcome: 'failed' })
    say(
      `could not build keytar for Electron ${deps.electron.version} (${firstLine(loads.detail)}); ` +
        'the app keeps the key with safeStorage or in memory, and says so. ' +
        'Retry: npm run keytar:electron -- --force',
    )
    return 'failed'
  }
  writeStamp(stampFile, { ...wanted, outcome: 'rebuilt' })
  say(
    `rebuilt for Electron ${deps.electron.version} in ${ELECTRON_KEYTAR} (the browser host keeps Node's build).`,
  )
  return 'rebuilt'
}

interface Stamp {
  electron?: string
  keytar?: string
  outcome?: string
}

function readStamp(file: string): Stamp | null {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Stamp
  } catch {
    return null
  }
}

function writeStamp(file: string, value: Record<string, string>): void {
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, `${JSON.stringify(value)}\n`)
}

function firstLine(text: string): string {
  return text.trim().split('\n').find(Boolean)?.slice(0, 200) ?? 'no output'
}

// ---- the real runtime, keytar and node-gyp -----------------------------------------------------

const require = createRequire(import.meta.url)

function resolvePackage(name: string): string | null {
  try {
    return dirname(require.resolve(`${name}/package.json`))
  } catch {
    return null
  }
}

/** The installed Electron binary without triggering its download (require('electron') would). */
export function installedElectron(): Runtime | null {
  const dir = resolvePackage('electron')
  if (!dir || !existsSync(join(dir, 'path.txt'))) return null
  const path = join(dir, 'dist', readFileSync(join(dir, 'path.txt'), 'utf8').trim())
  if (!existsSync(path)) return null
  const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    version: string
  }
  return { path, version }
}

export function probeWith(runtime: Runtime, moduleDir: string): Attempt {
  const result = spawnSync(
    runtime.path,
    [
      '-e',
      `const k = require(${JSON.stringify(moduleDir)}); if (typeof k.getPassword !== 'function') process.exit(3)`,
    ],
    { env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' }, encoding: 'utf8', timeout: 60_000 },
  )
  return { ok: result.status === 0, detail: `${result.stderr ?? ''}${result.error?.message ?? ''}` }
}

/** node-gyp against Electron's headers, as Electron's docs describe for a manual rebuild. */
export function buildWithNodeGyp(runtime: Runtime, moduleDir: string): Attempt {
  const gyp =
    process.env['npm_config_node_gyp'] ??
    [resolvePackage('node-gyp')]
      .filter((d): d is string => d !== null)
      .map((d) => join(d, 'bin', 'node-gyp.js'))[0]
  if (!gyp || !existsSync(gyp)) return { ok: false, detail: 'node-gyp was not found' }
  const result = spawnSync(
    process.execPath,
    [
      gyp,
      'rebuild',
      '--runtime=electron',
      `--target=${runtime.version}`,
      `--arch=${process.arch}`,
      '--dist-url=https://electronjs.org/headers',
    ],
    { cwd: moduleDir, encoding: 'utf8', timeout: 600_000 },
  )
  return { ok: result.status === 0, detail: `${result.stderr ?? ''}${result.error?.message ?? ''}` }
}

const isEntry =
  process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)
if (isEntry) {
  const keytarDir = resolvePackage('keytar')
  const keytarVersion = keytarDir
    ? (JSON.parse(readFileSync(join(keytarDir, 'package.json'), 'utf8')) as { version: string })
        .version
    : ''
  prepareElectronKeytar({
    root: resolve(dirname(fileURLToPath(import.meta.url)), '..'),
    electron: installedElectron(),
    keytarDir,
    keytarVersion,
    probe: probeWith,
    build: buildWithNodeGyp,
    log: (line) => console.log(line),
    force: process.argv.includes('--force'),
  })
  // Never fails the caller: without keytar the app still runs and says where the key lives.
  process.exitCode = 0
}
