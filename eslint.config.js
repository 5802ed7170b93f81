import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import svelte from 'eslint-plugin-svelte'
import globals from 'globals'

// Layers import downward only (ARCHITECTURE.md); a wrong import fails lint, not review.
const electronBan = {
  name: 'electron',
  message: 'electron is imported in src/main and src/preload only.',
}
const layer = (patterns, message) => patterns.map((group) => ({ group: [group], message }))
const svelteBan = { name: 'svelte', message: 'svelte belongs to src/renderer.' }
/** The app and its hosts: nothing below them (core, shared, sim, util) may import these. */
const upperLayers = [
  '**/app/*',
  '**/main/*',
  '**/web/*',
  '**/renderer/*',
  '**/cli/*',
  '**/preload/*',
]

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
  {
    files: ['src/core/**/*.ts', 'src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electronBan, { name: 'svelte', message: 'svelte belongs to src/renderer.' }],
          patterns: layer(
            ['**/app/*', '**/main/*', '**/web/*', '**/renderer/*', '**/cli/*', '**/preload/*'],
            'core, shared and sim sit below the app and the hosts.',
          ),
        },
      ],
    },
  },
  {
    // The simulator plays the other side of the wire: its plan tables, intervals and errors are
    // its own, so a wrong number in the client cannot pass a test (ARCHITECTURE: src/sim).
    files: ['src/sim/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electronBan, svelteBan],
          patterns: layer(
            ['**/core/*', '**/core/**', '**/shared/*', '**/shared/**', ...upperLayers],
            'the simulator imports nothing from the client; shared helpers live in src/util.',
          ),
        },
      ],
    },
  },
  {
    // Clock and seeded random: below every layer, used by the client and the simulator alike.
    files: ['src/util/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electronBan, svelteBan],
          patterns: layer(
            ['**/core/*', '**/shared/*', '**/sim/*', ...upperLayers],
            'src/util sits below every layer and imports none of them.',
          ),
        },
      ],
    },
  },
  {
    files: ['src/app/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electronBan],
          patterns: layer(
            ['**/main/*', '**/web/*', '**/renderer/*', '**/cli/*', '**/preload/*'],
            'the app service sits below the hosts and never sees the renderer.',
          ),
        },
      ],
    },
  },
  {
    files: ['src/web/**/*.ts', 'src/cli/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electronBan],
          patterns: layer(
            ['**/main/*', '**/renderer/*', '**/preload/*'],
            'hosts do not import each other.',
          ),
        },
      ],
    },
  },
  {
    files: ['src/renderer/**/*.ts', 'src/renderer/**/*.svelte'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            electronBan,
            { name: 'ws', message: 'the renderer never opens a socket to the service.' },
          ],
          patterns: layer(
            ['**/core/*', '**/app/*', '**/main/*', '**/web/*', '**/sim/*', '**/cli/*', 'node:*'],
            'the renderer talks only through the bridge contract (src/shared).',
          ),
        },
      ],
    },
  },
)
