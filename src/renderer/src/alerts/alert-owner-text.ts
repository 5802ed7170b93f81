import type { AlertRule } from '../../../shared/alerts/alert'
import type { AlertOwnerView } from '../../../shared/alerts/alert-owner'
import { sameService, serviceWords } from '../../../shared/alerts/alert-service'

/**
 * What the alerts panel says of who runs the folder's alerts, and of a rule this app does not
 * judge (it belongs to another service than the one the app runs on).
 */

/** The owner's sentence, capitalised; null before the host said anything. */
export function ownerSentence(owner: AlertOwnerView | null): string | null {
  if (owner === null) return null
  return owner.words.charAt(0).toUpperCase() + owner.words.slice(1)
}

/** "for api.example.com: not judged here", or null when this app judges the rule. */
export function notJudgedHere(rule: AlertRule, owner: AlertOwnerView | null): string | null {
  if (owner === null) return null
  const service = rule.service ?? owner.folder
  if (sameService(service, owner.here)) return null
  return `for ${serviceWords(service)}: not judged here (this app runs on ${serviceWords(owner.here)})`
}

/** Retry and Drop act as the folder's owner: elsewhere they say where to do it. */
export function ownerOnly(owner: AlertOwnerView | null): string | null {
  if (owner === null || owner.state === 'owner' || owner.state === 'leaseless') return null
  return 'Another process runs the alerts: retry or drop the fire there'
}
