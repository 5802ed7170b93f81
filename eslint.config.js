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
    files: ['src/core/**/*.ts', 'src/shared/**/*.ts', 'src/sim/**/*.ts'],
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
