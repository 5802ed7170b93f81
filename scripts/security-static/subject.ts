/** What the security scan's checks examine (scripts/security-static.ts): the real parts by default. */
import { createAppService } from '../../src/app/app-service'
import type { SecretStore } from '../../src/app/host-api'
import { savedConfig } from '../../src/app/feed/feed-chooser'
import { keyForUrl } from '../../src/app/keys/key-binding'
import { KeyKeeper } from '../../src/app/keys/key-keeper'
import { KeyMoveAsks, type KeyMove } from '../../src/app/keys/key-move'
import { storedWebhookView } from '../../src/app/webhooks/webhook-url-policy'
import { externalLink, isPermissionAllowed } from '../../src/main/link-policy'
import { mainWindowOptions, stripWindowOptions } from '../../src/main/windows/window-options'
import { WebhookViewSchema } from '../../src/shared/alerts/alert'
import { SnapshotSchema } from '../../src/shared/bridge'
import { CONTENT_SECURITY_POLICY } from '../../src/shared/security/content-security-policy'
import { urlProblem } from '../../src/shared/security/url-policy'
import { startWebHost } from '../../src/web/web-host'

export type Keeper = Pick<
  KeyKeeper,
  'load' | 'keyFor' | 'pendingMove' | 'entryNeeds' | 'set' | 'clear' | 'move'
>

/** What the checks examine; the real parts by default. */
export interface ScanSubject {
  keyForUrl: typeof keyForUrl
  keeper: (store: SecretStore, env: NodeJS.ProcessEnv) => Keeper
  asks: (confirm: (move: KeyMove) => Promise<boolean>) => Pick<KeyMoveAsks, 'ask'>
  storedWebhookView: typeof storedWebhookView
  webhookViewSchema: { safeParse(v: unknown): { success: boolean } }
  snapshotSchema: {
    safeParse(v: unknown): { success: boolean; error?: { issues: Array<{ path: PropertyKey[] }> } }
  }
  urlProblem: typeof urlProblem
  savedConfig: typeof savedConfig
  windowOptions: Array<[string, typeof mainWindowOptions]>
  externalLink: typeof externalLink
  isPermissionAllowed: typeof isPermissionAllowed
  csp: string
  startWebHost: typeof startWebHost
  createAppService: typeof createAppService
}

export const REAL: ScanSubject = {
  keyForUrl,
  keeper: (store, env) =>
    new KeyKeeper(store, env, { add: () => undefined, withdraw: () => undefined }),
  asks: (confirm) => new KeyMoveAsks(confirm),
  storedWebhookView,
  webhookViewSchema: WebhookViewSchema,
  snapshotSchema: SnapshotSchema,
  urlProblem,
  savedConfig,
  windowOptions: [
    ['main window', mainWindowOptions],
    ['ticker strip', stripWindowOptions],
  ],
  externalLink,
  isPermissionAllowed,
  csp: CONTENT_SECURITY_POLICY,
  startWebHost,
  createAppService,
}

/** The origin and key the checks use. */
export const A = 'https://api.example.com'
export const KEY = 'sk-scan-key-0001'
