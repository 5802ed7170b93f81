import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import svelte from 'eslint-plugin-svelte'
import globals from 'globals'

// The map of ARCHITECTURE.md, held by lint: per folder, what it may not import. A wrong import
// fails `npm run lint`, not a review; test/architecture/lint-rules.spec.ts proves it rule by rule.
// Import circles are caught by scripts/import-cycles.ts, which `npm run lint` runs after ESLint.
const electronBan = {
  name: 'electron',
  message: 'electron is imported in src/main and src/preload only.',
}
const svelteBan = { name: 'svelte', message: 'svelte belongs to src/renderer.' }
const TESTS = ['**/*.spec.ts', '**/testing/**']

// A layer is banned whole: '../app' (its barrel) as well as '../app/anything'.
const layers = (names, message) =>
  names.map((name) => ({ group: [`**/${name}`, `**/${name}/**`], message }))

/** One rule config; a file gets exactly one (ESLint replaces, never merges, a rule's options). */
const restrict = ({ paths = [], patterns = [] }) => ({
  '@typescript-eslint/no-restricted-imports': ['error', { paths, patterns }],
})

const coreBans = {
  paths: [electronBan, svelteBan],
  patterns: layers(
    ['app', 'main', 'preload', 'web', 'renderer', 'cli'],
    'core sits below the app and the hosts.',
  ),
}
const sharedLayers = layers(
  ['core', 'app', 'main', 'preload', 'web', 'renderer', 'sim', 'cli'],
  'shared is the bridge contract: data and schemas, below every layer.',
)
const noSim = (message) => layers(['sim'], message)
const appBans = {
  paths: [electronBan, svelteBan],
  patterns: layers(
    ['main', 'preload', 'web', 'renderer', 'cli'],
    'the app service sits below the hosts and never sees the renderer.',
  ),
}
// The simulator plays the other side of the wire: nothing from the client, not even its types.
const simBans = {
  paths: [electronBan, svelteBan],
  patterns: layers(
    ['main', 'preload', 'web', 'renderer', 'cli', 'app'],
    'the simulator imports nothing from the client.',
  ),
}
const simClientBans = layers(
  ['core', 'shared'],
  'the simulator imports nothing from the client: it has its own clock, random and plan tables.',
)

export default tseslint.config(
  {
    ignores: [
      'node_modules',
      'out',
      'dist',
      'coverage',
      'bench/results',
      'resources',
      'test-results',
      // The build's bundled config, written and removed beside its source while CI lints in
      // parallel with the build (vite: <config>.timestamp-*.mjs; electron-vite: <config>.<n>.mjs).
      '*.config.ts.*.mjs',
      '*.config.*.timestamp-*.mjs',
      // Stryker's sandboxes while `npm run mutation` runs.
      '.stryker-tmp',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...svelte.configs['flat/recommended'],
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: {
      parserOptions: { parser: tseslint.parser, extraFileExtensions: ['.svelte'] },
    },
  },
  // The import bans above see static imports only; a dynamic import() that leaves its folder
  // could cross a layer unseen, so shipped code may not write one.
  {
    files: ['src/**/*.ts', 'src/**/*.svelte'],
    ignores: TESTS,
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ImportExpression > Literal[value=/^\\.\\.\\//]',
          message:
            'import modules from other folders statically, so the layer rules can check them.',
        },
      ],
    },
  },
  // No function parks at a size cap (STYLE): a long one is cut into named parts, in shipped code,
  // scripts, benches and test helpers. A data table that really is one function may say so with
  // an eslint-disable-next-line and its reason.
  {
    files: [
      'src/**/*.ts',
      'src/**/*.svelte',
      'scripts/**/*.ts',
      'scripts/**/*.mjs',
      'bench/**/*.ts',
      'bench/**/*.mjs',
      // Test helpers too (a rig, a fake service); a spec's describe block is a list of cases.
      'test/**/*.ts',
      'test/**/*.mjs',
    ],
    ignores: TESTS,
    rules: {
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }],
    },
  },
  // Nothing shipped exists only for a test (ARCHITECTURE): a shipped module that imports a
  // `testing/` folder would bundle its fakes into the product. Its own rule (not the layer rule
  // above), so a folder's layer options cannot replace it.
  {
    files: ['src/**/*.ts', 'src/**/*.svelte'],
    ignores: TESTS,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)testing(/|$)',
              message: 'shipped code never imports a testing/ folder: only specs and testing/ may.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/shared/**/*.ts'],
    ignores: TESTS,
    rules: restrict({
      paths: [electronBan, svelteBan],
      patterns: [
        ...sharedLayers,
        {
          regex: '^(?!zod$|\\.)',
          message: 'shared has no runtime dependency beyond the validation library (zod).',
        },
      ],
    }),
  },
  // The contract's own tests may use the test runner.
  {
    files: ['src/shared/**/*.spec.ts'],
    rules: restrict({ paths: [electronBan, svelteBan], patterns: sharedLayers }),
  },
  {
    files: ['src/core/**/*.ts'],
    ignores: TESTS,
    rules: restrict({
      ...coreBans,
      patterns: [
        ...coreBans.patterns,
        ...noSim('core never imports the simulator: hosts inject it.'),
      ],
    }),
  },
  // Core's tests may run the real simulator on loopback (it is the service they test against).
  { files: ['src/core/**/*.spec.ts', 'src/core/**/testing/**'], rules: restrict(coreBans) },
  {
    files: ['src/app/**/*.ts'],
    ignores: TESTS,
    rules: restrict({
      ...appBans,
      patterns: [
        ...appBans.patterns,
        ...noSim('the app never imports the simulator: hosts inject it.'),
      ],
    }),
  },
  { files: ['src/app/**/*.spec.ts', 'src/app/**/testing/**'], rules: restrict(appBans) },
  {
    files: ['src/sim/**/*.ts'],
    ignores: TESTS,
    rules: restrict({ ...simBans, patterns: [...simBans.patterns, ...simClientBans] }),
  },
  { files: ['src/sim/**/*.spec.ts', 'src/sim/**/testing/**'], rules: restrict(simBans) },
  // Clock and seeded random: below every layer, used by the client and the simulator alike.
  {
    files: ['src/util/**/*.ts'],
    rules: restrict({
      paths: [electronBan, svelteBan],
      patterns: layers(
        ['core', 'shared', 'sim', 'app', 'main', 'preload', 'web', 'renderer', 'cli'],
        'src/util sits below every layer and imports none of them.',
      ),
    }),
  },
  {
    files: ['src/main/**/*.ts'],
    rules: restrict({
      paths: [svelteBan],
      patterns: layers(
        ['renderer', 'web', 'cli', 'sim'],
        'the Electron host wraps the app service; it does not import the renderer, the other host or the simulator (only its entry, index.ts, injects the demo service).',
      ),
    }),
  },
  // The entry point injects what the host gives the app service, the demo service included.
  {
    files: ['src/main/index.ts'],
    rules: restrict({
      paths: [svelteBan],
      patterns: layers(
        ['renderer', 'web', 'cli'],
        'the Electron host wraps the app service; it does not import the renderer or the other host.',
      ),
    }),
  },
  {
    files: ['src/preload/**/*.ts'],
    ignores: TESTS,
    rules: restrict({
      paths: [svelteBan],
      patterns: [
        ...layers(
          ['main', 'app', 'core', 'web', 'renderer', 'sim', 'cli'],
          'the preload is the narrow bridge API: electron and the contract in src/shared only.',
        ),
        {
          // command-outcome.ts imports nothing: the one outcome check, shared with the renderer.
          regex: '(^|/)shared(/(?!command-outcome$).*)?$',
          allowTypeImports: true,
          message:
            'the sandboxed preload takes only types from src/shared: a runtime import would bundle zod into it.',
        },
        {
          regex: '^(?!electron$|\\.)',
          message: 'a sandboxed preload can require electron and nothing else.',
        },
      ],
    }),
  },
  {
    files: ['src/web/**/*.ts'],
    rules: restrict({
      paths: [electronBan, svelteBan],
      patterns: layers(
        ['main', 'preload', 'renderer', 'cli', 'sim'],
        'the browser host wraps the app service; hosts do not import each other.',
      ),
    }),
  },
  {
    files: ['src/cli/**/*.ts'],
    rules: restrict({
      paths: [electronBan, svelteBan],
      patterns: layers(['main', 'preload', 'renderer'], 'hosts do not import each other.'),
    }),
  },
  {
    files: ['src/renderer/**/*.ts', 'src/renderer/**/*.svelte'],
    rules: restrict({
      paths: [
        electronBan,
        { name: 'ws', message: 'the renderer never opens a socket to the service.' },
      ],
      patterns: [
        ...layers(
          ['core', 'app', 'main', 'preload', 'web', 'sim', 'cli'],
          'the renderer talks only through the bridge contract (src/shared).',
        ),
        { group: ['node:*'], message: 'the renderer runs in a browser page: no Node modules.' },
      ],
    }),
  },
  // The renderer never calls the market service: all network I/O is the host's (ARCHITECTURE).
  {
    files: ['src/renderer/**/*.ts', 'src/renderer/**/*.svelte'],
    ignores: TESTS,
    rules: {
      'no-restricted-globals': [
        'error',
        ...['fetch', 'XMLHttpRequest', 'EventSource'].map((name) => ({
          name,
          message:
            'the renderer talks to its host over the bridge only; the host does all network I/O.',
        })),
      ],
    },
  },
  // Renderer specs may drive the real preload code (electron-api.spec.ts chains them).
  {
    files: ['src/renderer/**/*.spec.ts', 'src/renderer/**/testing/**'],
    rules: restrict({
      paths: [electronBan],
      patterns: layers(
        ['core', 'app', 'main', 'web', 'sim', 'cli'],
        'renderer tests stay on the renderer side of the bridge.',
      ),
    }),
  },
)
