import type { AlertRule } from '../../shared/alerts/alert'
import {
  DEFAULT_PROFILE,
  isDemo,
  sameService,
  serviceRef,
  serviceWords,
  type ServiceRef,
} from '../../shared/alerts/alert-service'

/**
 * Which service each rule belongs to, and so which process may judge it: a rule is judged and its
 * fires delivered only by a process running on the service it was made for (demo prices never
 * meet a real account's rules; another base URL or profile is another account).
 *
 * A rule from before rules knew their service belongs to the service the app's settings name
 * (the folder's service: its base URL, or demo when none; the default profile): that is the
 * service the trader's app ran those rules on.
 */

/** The folder's service, from the app's settings: where a rule without one belongs. */
export function folderService(settings: { baseUrl: string }): ServiceRef {
  return serviceRef(settings.baseUrl || null, DEFAULT_PROFILE)
}

export function ruleService(rule: AlertRule, folder: ServiceRef): ServiceRef {
  return rule.service ?? folder
}

/** Whether a process on `here` judges `rule`. */
export function judgedOn(rule: AlertRule, here: ServiceRef, folder: ServiceRef): boolean {
  return sameService(ruleService(rule, folder), here)
}

/**
 * Whether a process on `here` may run the folder's alerts at all: any real service may (it judges
 * its own rules and says the others wait); demo mode only while no enabled rule belongs to a
 * real service, so a demo process never holds the folder while the trader's real rules wait.
 */
export function mayOwn(
  rules: readonly AlertRule[],
  here: ServiceRef,
  folder: ServiceRef,
): { ok: true } | { ok: false; why: string } {
  if (!isDemo(here)) return { ok: true }
  const real = rules.filter((r) => r.enabled && !isDemo(ruleService(r, folder)))
  if (real.length === 0) return { ok: true }
  const where = serviceWords(ruleService(real[0] as AlertRule, folder))
  return {
    ok: false,
    why: `${countWords(real.length)} of this folder belong to ${where}; this process runs on the demo simulator, so it runs none of them (a process on ${where} runs them)`,
  }
}

/** "2 alerts belong to api.example.com: not judged here (demo)", or null when all are judged. */
export function notJudgedWords(
  rules: readonly AlertRule[],
  here: ServiceRef,
  folder: ServiceRef,
): string | null {
  const elsewhere = new Map<string, { service: ServiceRef; count: number }>()
  for (const r of rules) {
    if (!r.enabled || judgedOn(r, here, folder)) continue
    const service = ruleService(r, folder)
    const key = `${service.url ?? ''}\n${service.profile}`
    const known = elsewhere.get(key)
    if (known) known.count++
    else elsewhere.set(key, { service, count: 1 })
  }
  if (elsewhere.size === 0) return null
  const parts = [...elsewhere.values()].map(
    (e) => `${countWords(e.count)} for ${serviceWords(e.service)}`,
  )
  return `${parts.join(', ')}: not judged here, this process runs on ${serviceWords(here)}`
}

function countWords(n: number): string {
  return n === 1 ? '1 alert' : `${n} alerts`
}
