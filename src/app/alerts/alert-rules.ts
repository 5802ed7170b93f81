import { randomUUID } from 'node:crypto'
import { TickdeskError } from '../../core/errors'
import { AlertRuleInputSchema, type AlertRule } from '../../shared/alerts/alert'
import { findList, listConditionProblem, listRuleKey } from '../../shared/alerts/alert-list'
import { describeCondition } from '../../shared/alerts/alert-describe'
import type { Watchlist } from '../../shared/watchlist'
import { canonicalKey } from '../watchlists/watchlist-book'

function refuse(message: string): TickdeskError {
  return new TickdeskError({
    code: 'INVALID_INPUT',
    message: `The alert was not added: ${message}`,
  })
}

/**
 * A new alert rule from what the trader typed, the same way for every host (the app's addAlert
 * command and `tickdesk alerts add`): the key made canonical (or the list found, by id or name),
 * the input checked against the bridge's schema, and a refusal worded for the trader
 * (INVALID_INPUT) that changes nothing.
 */
export function buildAlertRule(
  input: { key?: string; listId?: string | null } & Record<string, unknown>,
  now: number,
  ctx: {
    lists: readonly Watchlist[]
    id?: string
    /** Built from a saved drawing (src/app/drawings): the only way to an alert on a drawing. */
    fromDrawing?: boolean
  },
): AlertRule {
  let key: string
  let listId: string | undefined
  if (typeof input.listId === 'string') {
    const list = findList(ctx.lists, input.listId)
    if (list === undefined)
      throw refuse(
        `there is no watchlist "${input.listId.slice(0, 64)}" (lists: ${ctx.lists.map((l) => l.name).join(', ') || 'none'})`,
      )
    listId = list.id
    key = listRuleKey(list.id)
  } else {
    try {
      key = canonicalKey(String(input.key ?? ''))
    } catch (e) {
      throw refuse((e as Error).message)
    }
  }
  const { listId: _typed, ...rest } = input
  const parsed = AlertRuleInputSchema.safeParse({ ...rest, key, ...(listId ? { listId } : {}) })
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const where = issue?.path.join('.') ?? ''
    throw refuse(`${where ? `${where}: ` : ''}${issue?.message ?? 'invalid input'}`)
  }
  const condition = parsed.data.condition
  const onDrawing = condition.kind === 'lineCross' || condition.kind === 'rangeCross'
  if (onDrawing && ctx.fromDrawing !== true)
    throw refuse('an alert on a drawing is made from the drawing on its chart (its menu, or A)')
  const listProblem = listId === undefined ? null : listConditionProblem(condition)
  if (listProblem !== null)
    throw refuse(`"${describeCondition(condition)}" cannot apply to a whole list; ${listProblem}`)
  return { ...parsed.data, id: ctx.id ?? randomUUID(), createdAt: now, enabled: true }
}
