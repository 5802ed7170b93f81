import { resolve } from 'node:path'
import { ESLint } from 'eslint'
import { beforeAll, describe, expect, it } from 'vitest'

/**
 * The layer map of docs/architecture.md is held by ESLint. Each case lints a few lines as if
 * they were a file in that folder (the file need not exist) with the project's real config, and
 * checks that a forbidden import fails and its allowed neighbour passes.
 */
const ROOT = resolve(import.meta.dirname, '..', '..')
let eslint: ESLint
beforeAll(() => {
  eslint = new ESLint({ cwd: ROOT })
})

async function ruleIds(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: resolve(ROOT, filePath) })
  return (result?.messages ?? []).map((m) => m.ruleId ?? `fatal: ${m.message}`)
}

const use = (from: string, what = 'x'): string =>
  `import { ${what} } from '${from}'
export const ${what}Used = ${what}
`
const useType = (from: string): string => `import type { X } from '${from}'\nexport type Y = X\n`
const RESTRICTED = '@typescript-eslint/no-restricted-imports'

const forbidden: Array<[rule: string, file: string, code: string]> = [
  ['electron outside main and preload', 'src/app/probe.ts', use('electron', 'app')],
  ['electron in the renderer', 'src/renderer/src/lib/probe.ts', use('electron', 'ipcRenderer')],
  ['svelte outside the renderer', 'src/core/probe.ts', use('svelte', 'tick')],
  ['core above itself, by path', 'src/core/probe.ts', use('../app/app-service')],
  ['core above itself, by barrel', 'src/core/probe.ts', use('../app')],
  ['core importing the simulator', 'src/core/probe.ts', use('../sim')],
  ['the app importing a host', 'src/app/probe.ts', use('../web/web-host')],
  ['the app importing the simulator', 'src/app/probe.ts', use('../sim/server')],
  ['a type from above is still above', 'src/core/probe.ts', useType('../app/host-api')],
  ['shared importing core', 'src/shared/probe.ts', use('../core/clock')],
  ['shared with a runtime dependency other than zod', 'src/shared/probe.ts', use('ws')],
  ['the simulator importing the client engine', 'src/sim/probe.ts', use('../core/clock')],
  ['the simulator importing the contract', 'src/sim/probe.ts', use('../shared/market')],
  ['the simulator importing the app', 'src/sim/probe.ts', use('../app')],
  ['main importing the renderer', 'src/main/probe.ts', use('../renderer/src/lib/format')],
  ['main importing the browser host', 'src/main/probe.ts', use('../web')],
  ['main importing the simulator', 'src/main/probe.ts', use('../sim')],
  ['the Electron entry importing the browser host', 'src/main/index.ts', use('../web')],
  ['preload importing the app', 'src/preload/probe.ts', use('../app/host-api')],
  ['preload importing core', 'src/preload/probe.ts', use('../core/errors')],
  ['preload taking a runtime value from shared', 'src/preload/probe.ts', use('../shared/bridge')],
  ['preload requiring a package', 'src/preload/probe.ts', use('zod', 'z')],
  ['the browser host importing the Electron host', 'src/web/probe.ts', use('../main/host')],
  ['the CLI importing the renderer', 'src/cli/probe.ts', use('../renderer/src/lib/format')],
  ['the renderer importing core', 'src/renderer/src/lib/probe.ts', use('../../../core/clock')],
  [
    'the renderer importing the preload',
    'src/renderer/src/lib/probe.ts',
    use('../../../preload/channels'),
  ],
  ['the renderer importing Node', 'src/renderer/src/lib/probe.ts', use('node:fs', 'readFile')],
  ['the renderer opening a socket', 'src/renderer/src/lib/probe.ts', use('ws', 'WebSocket')],
]

const allowed: Array<[what: string, file: string, code: string]> = [
  ['main using the app and core', 'src/main/probe.ts', use('../app/secrets/secret-store')],
  ['main using the preload channel names', 'src/main/probe.ts', use('../preload/channels')],
  ['the Electron entry injecting the demo service', 'src/main/index.ts', use('../sim')],
  [
    'preload taking types from shared, and electron',
    'src/preload/probe.ts',
    `${useType('../shared/bridge')}${use('electron', 'ipcRenderer')}`,
  ],
  [
    'preload taking the outcome check, which imports nothing',
    'src/preload/probe.ts',
    use('../shared/command-outcome', 'isCommandOutcome'),
  ],
  [
    'shared using zod and itself',
    'src/shared/probe.ts',
    `${use('zod', 'z')}${use('./market', 'm')}`,
  ],
  ['core tests running the real simulator', 'src/core/probe.spec.ts', use('../sim')],
  [
    'the CLI running the simulator and the browser host',
    'src/cli/probe.ts',
    `${use('../sim', 's')}${use('../web', 'w')}`,
  ],
  [
    'the renderer using the contract',
    'src/renderer/src/lib/probe.ts',
    use('../../../shared/bridge'),
  ],
]

describe('lint holds the layer map', () => {
  it.each(forbidden)('fails: %s', async (_rule, file, code) => {
    expect(await ruleIds(file, code)).toContain(RESTRICTED)
  })

  it.each(allowed)('passes: %s', async (_what, file, code) => {
    expect(await ruleIds(file, code)).toEqual([])
  })

  it('fails a renderer that calls fetch, where only the host may talk to the network', async () => {
    expect(
      await ruleIds(
        'src/renderer/src/lib/probe.ts',
        "export const get = () => fetch('https://api.example.com')\n",
      ),
    ).toEqual(['no-restricted-globals'])
  })

  it('fails shipped code that imports a testing/ folder, and lets specs and testing/ use one', async () => {
    const fake = "import { fakeClock } from './testing/fake-clock'\nexport const c = fakeClock\n"
    const up = "import { fakeApi } from '../testing/fake-api'\nexport const a = fakeApi\n"
    expect(await ruleIds('src/core/probe.ts', fake)).toEqual(['no-restricted-imports'])
    expect(await ruleIds('src/renderer/src/lib/probe.ts', up)).toEqual(['no-restricted-imports'])
    expect(await ruleIds('src/main/probe.ts', up)).toEqual(['no-restricted-imports'])
    expect(await ruleIds('src/core/probe.spec.ts', fake)).toEqual([])
    expect(await ruleIds('src/core/testing/probe.ts', fake)).toEqual([])
  })

  it('fails a 90-line function in shipped code, scripts, benches and test helpers, and lets a spec hold one', async () => {
    const lines = Array.from({ length: 88 }, (_, i) => `  n += ${i}\n`).join('')
    const long = `export function long(): number {\n  let n = 0\n${lines}  return n\n}\n`
    const longJs = long.replace('(): number', '()')
    expect(await ruleIds('src/core/probe.ts', long)).toEqual(['max-lines-per-function'])
    expect(await ruleIds('src/renderer/src/lib/probe.ts', long)).toEqual(['max-lines-per-function'])
    expect(await ruleIds('scripts/probe.ts', long)).toEqual(['max-lines-per-function'])
    expect(await ruleIds('scripts/probe.mjs', longJs)).toEqual(['max-lines-per-function'])
    expect(await ruleIds('bench/probe.ts', long)).toEqual(['max-lines-per-function'])
    expect(await ruleIds('bench/probe.mjs', longJs)).toEqual(['max-lines-per-function'])
    expect(await ruleIds('test/faults/probe.ts', long)).toEqual(['max-lines-per-function'])
    expect(await ruleIds('test/faults/probe.spec.ts', long)).toEqual([])
    expect(await ruleIds('src/core/probe.spec.ts', long)).toEqual([])
    expect(await ruleIds('src/core/testing/probe.ts', long)).toEqual([])
  })

  it('fails a dynamic import() that leaves its folder, which the import rules cannot see', async () => {
    expect(
      await ruleIds('src/app/probe.ts', "export const load = () => import('../sim')\n"),
    ).toEqual(['no-restricted-syntax'])
    expect(
      await ruleIds('src/cli/probe.ts', "export const load = () => import('./commands/sim')\n"),
    ).toEqual([])
  })
})
