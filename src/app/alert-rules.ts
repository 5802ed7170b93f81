import { randomUUID } from 'node:crypto'
import { TickdeskError } from '../core/errors'
import { AlertRuleInputSchema, type AlertRule } from '../shared/alert'
import { canonicalKey } from './watchlist-book'

/**
 * A new alert rule from what the trader typed, the same way for every host (the app's addAlert
 * command and `tickdesk alerts add`): the key made canonical, the input checked against the
 * bridge's schema, and a refusal worded for the trader (INVALID_INPUT) that changes nothing.
 */
export function buildAlertRule(
  input: { key: string } & Record<string, unknown>,
  now: number,
  id: string = randomUUID(),
): AlertRule {
  const parsed = AlertRuleInputSchema.safeParse({ ...input, key: canonicalKey(input.key) })
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const where = issue?.path.join('.') ?? ''
    throw new TickdeskError({
      code: 'INVALID_INPUT',
      message: `The alert was not added: ${where ? `${where}: ` : ''}${issue?.message ?? 'invalid input'}`,
    })
  }
  return { ...parsed.data, id, createdAt: now, enabled: true }
}
