import type { BudgetPlan } from '../../core/feed/budget-preview'
import { PRIORITY } from '../../core/feed/feed-planner'
import type { StreamReason } from '../../core/feed/stream-choice'
import { parseSymbolKey, type SymbolKey } from '../../shared/markets/market'

/**
 * The budget line's "why", in the trader's words: for the symbols of one list, why they stream or
 * are polled (core/feed/stream-choice.ts decides; this only counts and names). One sentence a
 * group, largest first, e.g. "6 usdt-futures streamed: alone in their poll batch, so streaming them
 * takes a call out of every round".
 */
export function budgetReasons(
  plan: BudgetPlan,
  mine: ReadonlySet<SymbolKey>,
  priorities: ReadonlyMap<SymbolKey, number>,
): string[] {
  const groups = new Map<string, { count: number; markets: Map<string, number> }>()
  for (const [key, reason] of plan.reasons) {
    if (!mine.has(key)) continue
    const text = sentence(reason, priorities.get(key) ?? PRIORITY.other, plan)
    const market = parseSymbolKey(key)?.market ?? '?'
    const g = groups.get(text) ?? { count: 0, markets: new Map<string, number>() }
    g.count += 1
    g.markets.set(market, (g.markets.get(market) ?? 0) + 1)
    groups.set(text, g)
  }
  const lines = [...groups.entries()]
    .sort((a, b) => b[1].count - a[1].count)
    .map(([text, g]) => `${g.count} ${marketWords(g.markets)}${text}`)
  if (plan.backgroundPolled > 0 && plan.backgroundPollEveryMs !== null) {
    const sec = Math.max(1, Math.round(plan.backgroundPollEveryMs / 1000))
    lines.push(
      `Other lists: ${plan.backgroundPolled} symbols out of view polled every ~${sec} s; alerted and pinned ones keep this pace`,
    )
  }
  return lines
}

function sentence(reason: StreamReason, priority: number, plan: BudgetPlan): string {
  switch (reason) {
    case 'priority':
      return priority === PRIORITY.visible
        ? ' streamed: on screen, and the stream has room for all of them'
        : priority === PRIORITY.alerted
          ? ' streamed: an alert watches them'
          : priority === PRIORITY.pinned
            ? ' streamed: pinned to the tray'
            : ' streamed: the stream had room'
    case 'saves-call':
      return ' streamed: alone in their poll batch, so streaming them takes a call out of every round'
    case 'spare-slot':
      return ' streamed on spare slots (no symbol there would save a poll call)'
    case 'outranked':
      return ` polled, ${plan.callsPerRound} call${plan.callsPerRound === 1 ? '' : 's'} a round: the ${plan.streamed.length} stream slots went to higher priorities or to batches they empty`
    case 'not-streamable':
      return ' polled: agriculture is served over REST only'
    case 'demoted':
      return ' polled: silent or refused on the stream, tried again within 10 min'
    case 'stream-down':
      return ' polled: the stream is not open'
    case 'stream-market':
      return ' polled: the stream cannot be used for this market now (no name answers, or its prices do not match the service’s quotes)'
    case 'checking':
      return ' polled, and kept on the stream to check it against the polls'
    case 'same-symbol':
      return ' polled: the same symbol streams in another market, and the stream does not say which market a price is for'
  }
}

/** "6 usdt-futures" for one market, nothing for a mix (the count alone reads better). */
function marketWords(markets: Map<string, number>): string {
  const [only] = markets.keys()
  return markets.size === 1 && only !== undefined ? `${only}` : 'symbols'
}
