/**
 * StrykerJS over the security-critical modules, one set at a time (scripts/mutation.mjs picks
 * the set through TICKDESK_MUTATION_SET and writes each set's JSON report under docs/mutation/).
 * Mutation runs are CPU-heavy: concurrency 2 at most, and the script runs them niced.
 */
export const SETS = {
  keys: [
    'src/app/keys/key-binding.ts',
    'src/app/keys/key-keeper.ts',
    'src/app/keys/key-move.ts',
    'src/app/keys/keyed-feed.ts',
  ],
  webhooks: [
    'src/shared/security/url-policy.ts',
    'src/app/webhooks/webhook-url-policy.ts',
    // webhookView, webhookHost, maskedWebhookUrl: what a page and the CLI see of a webhook.
    'src/shared/alerts/alert.ts:239-269',
  ],
  'browser-host': ['src/web/request-guard.ts', 'src/web/launch-codes.ts', 'src/web/web-host.ts'],
  windows: ['src/main/windows/window-options.ts', 'src/main/link-policy.ts'],
}

const set = process.env.TICKDESK_MUTATION_SET ?? 'windows'
if (!(set in SETS)) throw new Error(`no mutation set ${set}: ${Object.keys(SETS).join(', ')}`)

export default {
  packageManager: 'npm',
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'vitest.mutation.config.ts', related: true },
  coverageAnalysis: 'perTest',
  mutate: SETS[set],
  concurrency: Number(process.env.TICKDESK_MUTATION_CONCURRENCY ?? 2),
  timeoutMS: 20_000,
  reporters: ['json', 'clear-text', 'progress'],
  jsonReporter: { fileName: `docs/mutation/${set}.json` },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  ignorePatterns: [
    'out',
    'dist',
    'docs',
    'bench',
    'resources',
    '.stryker-tmp',
    'test/e2e',
    'test/soak',
  ],
  thresholds: { high: 90, low: 80, break: null },
}
