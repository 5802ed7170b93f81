import { defineConfig } from 'vitest/config'

/**
 * The specs mutation testing runs (npm run mutation, scripts/mutation.mjs): the node specs of
 * the security-critical modules, without the e2e project and its Chromium. Stryker's vitest
 * runner picks, per mutant, the tests that cover it. Files that replace the electron module run
 * in a project of their own, each isolated, as in vitest.config.ts.
 */
const ELECTRON_MOCKED = ['src/main/security.spec.ts', 'src/main/key-host-dialog.spec.ts']

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'mutation',
          environment: 'node',
          include: [
            'src/app/keys/*.spec.ts',
            'src/app/webhooks/*.spec.ts',
            'src/shared/security/url-policy.spec.ts',
            'src/shared/alerts/webhook-view.spec.ts',
            'src/shared/settings*.spec.ts',
            'src/web/*.spec.ts',
            'src/main/windows/window-options.spec.ts',
            'src/main/link-policy.spec.ts',
            'src/cli/commands/webhook-disabled.spec.ts',
            'src/cli/commands/alerts-webhook.spec.ts',
          ],
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'mutation-isolated',
          environment: 'node',
          include: ELECTRON_MOCKED,
          testTimeout: 30_000,
        },
      },
    ],
  },
})
