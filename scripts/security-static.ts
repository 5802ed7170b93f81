/**
 * The security scan's checks of behaviour (`npm run security -- --static`): each imports the
 * real functions, window options and servers and checks what they do, so a regression fails
 * here whatever its wording in the source. Each check takes the parts it examines from a
 * ScanSubject; test/architecture/security-static.spec.ts hands it broken ones (a keyForUrl that
 * gives the key to any host, a webhook view that spreads the whole webhook, a window without
 * the sandbox, ...) and expects each check to fail on the regression it stands for.
 *
 * Run with tsx: prints one line per check and exits 1 if any failed.
 */
import { pathToFileURL } from 'node:url'
import { appSendsNoKeyElsewhere, browserHostSessionOnly } from './security-static/host-checks'
import {
  envKeyBoundToEnvOrigin,
  keyMovesOnlyAsConfirmed,
  keyOnlyToItsOrigin,
  keyQuestionsOneAtATime,
} from './security-static/key-checks'
import {
  linksPermissionsCsp,
  oneUrlPolicy,
  savedSettingsCarryNoKey,
  webhookUrlOffBridge,
  windowsSandboxed,
} from './security-static/surface-checks'
import { REAL, type ScanSubject } from './security-static/subject'

export { REAL, type ScanSubject }

export const CHECKS: ReadonlyArray<readonly [string, (s: ScanSubject) => Promise<string[]>]> = [
  ['the key goes only to the origin it was entered for', keyOnlyToItsOrigin],
  ['a kept key moves only as confirmed, per origin', keyMovesOnlyAsConfirmed],
  ['TICKDESK_API_KEY binds only to the environment’s origin', envKeyBoundToEnvOrigin],
  ['key questions: one at a time, a refusal not asked again', keyQuestionsOneAtATime],
  ['no webhook URL on the bridge', webhookUrlOffBridge],
  ['one URL policy for the service and webhooks', oneUrlPolicy],
  ['saved settings carry no key, and the key’s scheme', savedSettingsCarryNoKey],
  ['every window’s page sandboxed', windowsSandboxed],
  ['links, permissions and the CSP', linksPermissionsCsp],
  ['the browser host: one-time codes, sessions, the bridge', browserHostSessionOnly],
  ['the app sends no key to a base URL it was not entered for', appSendsNoKeyElsewhere],
]

/** Runs every check on `subject`; the failures in words, per check. */
export async function runChecks(
  subject: ScanSubject = REAL,
): Promise<Array<{ name: string; failures: string[] }>> {
  const results: Array<{ name: string; failures: string[] }> = []
  for (const [name, check] of CHECKS) {
    const failures = await check(subject).catch((e: unknown) => [
      `the check itself failed: ${String(e)}`,
    ])
    results.push({ name, failures })
  }
  return results
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const results = await runChecks()
  console.log('Static checks (behaviour of the real modules)')
  for (const { name, failures } of results) {
    console.log(`  ${failures.length === 0 ? 'ok  ' : 'FAIL'} ${name}`)
    for (const f of failures) console.log(`       ${f}`)
  }
  process.exitCode = results.some((r) => r.failures.length > 0) ? 1 : 0
}
