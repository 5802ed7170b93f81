/**
 * Static checks of the security scan (issue 38, finding 8), over the source text: rules a
 * regression would break silently, held where a scan can hold them. Each returns a list of
 * failures in words (empty: the rule holds). `read(path)` gives a file's text, relative to the
 * repository root; test/architecture/security-static.spec.ts feeds them broken copies.
 */

/** Webhook URLs are bearer secrets: the page's view of a webhook has no `url`, and the bridge carries only that view. */
export function webhookUrlOffBridge(read) {
  const failures = []
  const alert = read('src/shared/alerts/alert.ts')
  const view = /export const WebhookViewSchema = z([\s\S]*?)\.strict\(\)/.exec(alert)
  if (!view)
    failures.push(
      'src/shared/alerts/alert.ts: no strict WebhookViewSchema (the page’s view of a webhook)',
    )
  else if (/\burl\s*:/.test(view[1]))
    failures.push(
      'src/shared/alerts/alert.ts: WebhookViewSchema has a url field: webhook URLs must not cross the bridge',
    )
  const bridge = read('src/shared/bridge.ts')
  for (const m of bridge.matchAll(/webhooks\s*:\s*z\.array\((\w+)\)/g))
    if (m[1] !== 'WebhookViewSchema')
      failures.push(
        `src/shared/bridge.ts: webhooks on the bridge are ${m[1]}, not WebhookViewSchema`,
      )
  if (/\bWebhookSchema\b/.test(bridge))
    failures.push(
      'src/shared/bridge.ts: imports WebhookSchema (with its url) into the bridge contract',
    )
  return failures
}

/**
 * The key goes only to the service it was entered for: the app hands the engine a key in two
 * places, both through the key keeper's binding (keyFor, or a fresh entry bound as it is made),
 * and the keeper has no way to read the key out unbound.
 */
export function keyBoundToItsHost(read) {
  const failures = []
  // The key's way to the engine: keyed-feed.ts (moved out of app-service.ts, which must not
  // reach the engine's key past it).
  const app = read('src/app/keys/keyed-feed.ts')
  if (/engine\.setApiKey\(|this\.feeds\.switchTo\(/.test(read('src/app/app-service.ts')))
    failures.push('src/app/app-service.ts: gives the engine a key past keyed-feed.ts')
  const switches = [...app.matchAll(/this\.feeds\.switchTo\(([^)]*)\)/g)]
  if (switches.length !== 1)
    failures.push(
      `src/app/keys/keyed-feed.ts: ${switches.length} feed switches; the one switch must take keyFor's key`,
    )
  for (const s of switches)
    if (!/apiKey\b/.test(s[1]) || !/const apiKey = this\.keys\.keyFor\(wanted\.baseUrl\)/.test(app))
      failures.push(
        'src/app/keys/keyed-feed.ts: the feed switch does not take the key from keys.keyFor(wanted.baseUrl)',
      )
  const setKeys = [...app.matchAll(/engine\.setApiKey\((\w+)\)/g)]
  for (const s of setKeys) {
    const fn = app.slice(0, s.index).lastIndexOf('async setApiKey(')
    const bound =
      fn >= 0 && /this\.keys\.set\(apiKey, this\.serviceUrl\(\)\)/.test(app.slice(fn, s.index))
    if (!bound)
      failures.push('src/app/keys/keyed-feed.ts: engine.setApiKey outside a fresh, bound entry')
  }
  const keeper = read('src/app/keys/key-keeper.ts')
  if (/\bget\s+(saved|key|apiKey)\s*\(/.test(keeper))
    failures.push('src/app/keys/key-keeper.ts: a getter hands out the key without its host binding')
  if (
    /savedConfig\([^)]*,/.test(app) ||
    /apiKey/.test(
      /export function savedConfig[\s\S]*?\n}/.exec(read('src/app/feed/feed-chooser.ts'))?.[0] ??
        '',
    )
  )
    failures.push('src/app/feed/feed-chooser.ts: savedConfig carries a key past the binding')
  return failures
}

export const STATIC_CHECKS = [
  ['no webhook url on the bridge schema', webhookUrlOffBridge],
  ['no key sent to a host it was not entered for', keyBoundToItsHost],
]
