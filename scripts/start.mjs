#!/usr/bin/env node
// `npm start`: builds, then runs the Electron app where its runtime exists; otherwise (as on
// machines where the Electron binary cannot be downloaded) starts the browser host and says so.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

const require = createRequire(import.meta.url)
const bin = (name) => new URL(`../node_modules/.bin/${name}`, import.meta.url).pathname

if (process.env.TICKDESK_SKIP_BUILD !== '1') {
  const build = spawnSync('npm', ['run', '--silent', 'build'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  if (build.status !== 0) {
    console.error('Build failed: see the errors above.')
    process.exit(build.status ?? 1)
  }
}

// Electron fetches its runtime on first use; do that here, quietly and with a time limit, so a
// machine that cannot download it gets one clear line instead of a stack trace.
function fetchElectronRuntime() {
  let pkgDir
  try {
    pkgDir = dirname(require.resolve('electron/package.json'))
  } catch {
    return 'the electron package is not installed'
  }
  if (existsSync(join(pkgDir, 'path.txt'))) return null
  console.log('Downloading the Electron runtime (first start only)…')
  const result = spawnSync(process.execPath, [join(pkgDir, 'install.js')], {
    encoding: 'utf8',
    timeout: 180_000,
  })
  if (result.status === 0) return null
  const detail = `${result.stderr ?? ''}${result.stdout ?? ''}`
    .split('\n')
    .find((l) => /error/i.test(l))
  return `its runtime could not be downloaded${detail ? ` (${detail.trim()})` : ''}`
}

function electronBinary() {
  const problem = fetchElectronRuntime()
  if (problem) return { reason: problem }
  try {
    const path = require('electron')
    if (typeof path === 'string' && existsSync(path)) return { path }
    return { reason: 'the Electron runtime binary is not installed' }
  } catch (e) {
    return {
      reason: `the Electron runtime is unavailable (${String(e.message ?? e).split('\n')[0]})`,
    }
  }
}

const electron = electronBinary()
const headlessLinux =
  process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY
if (electron.path && !headlessLinux) {
  // keytar for Electron's ABI if npm's build does not load in it (once per version; see the script).
  spawnSync(bin('tsx'), [new URL('./electron-keytar.ts', import.meta.url).pathname], {
    stdio: 'inherit',
  })
  const child = spawn(electron.path, ['.'], { stdio: 'inherit' })
  child.on('exit', (code) => process.exit(code ?? 0))
} else {
  const reason = electron.reason ?? 'there is no display'
  console.log(`Electron cannot start here: ${reason}. Starting the browser host instead.`)
  // The built host (bin/tickdesk.js runs out/cli, made by the build above): plain JavaScript.
  const cli = new URL('../bin/tickdesk.js', import.meta.url).pathname
  const child = spawn(process.execPath, [cli, 'web', ...process.argv.slice(2)], {
    stdio: 'inherit',
  })
  const forward = (sig) => child.kill(sig)
  process.on('SIGINT', forward)
  process.on('SIGTERM', forward)
  child.on('exit', (code) => process.exit(code ?? 0))
}
