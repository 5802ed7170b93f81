import type { BudgetPreview } from '../../../shared/budget'

const PLAN_NAMES: Record<BudgetPreview['plan'], string> = {
  free: 'Free',
  growth: 'Growth',
  pro: 'Pro',
  enterprise: 'Enterprise',
}

/**
 * "this list: 12 streamed · 48 polled every ~6 s · 21/27 req/min". Says it counts this list: the
 * status bar counts the stream slots of every list, and the two must not read as a contradiction.
 */
export function budgetWords(p: BudgetPreview): string {
  const parts = [`this list: ${p.streamed} streamed`]
  if (p.polled > 0) parts.push(`${p.polled} polled every ~${p.pollEverySec ?? '?'} s`)
  else parts.push('0 polled')
  if (p.quiet)
    parts.push(`${p.quiet} closed, asked every ~${Math.round((p.quietEverySec ?? 300) / 60)} min`)
  if (p.blocked > 0) parts.push(`${p.blocked} not in plan`)
  parts.push(`${p.requestsPerMinute}/${p.perMinute} req/min`)
  return parts.join(' · ')
}

export function planName(p: BudgetPreview): string {
  return `${PLAN_NAMES[p.plan]}${p.demo ? ' (demo)' : ''}`
}

/** The tooltip: what the numbers mean and where they come from. */
export function budgetTitle(p: BudgetPreview): string {
  return [
    `On the ${planName(p)} plan: the stream carries ${p.streamUsed} of ${p.streamCap} symbols (symbols on screen first);`,
    `the rest are polled in batches, using ${p.requestsPerMinute} of the ${p.perMinute} requests a minute Tickdesk allows itself (90% of the plan).`,
    ...(p.quiet
      ? [
          `Closed markets are asked every ~${Math.round((p.quietEverySec ?? 300) / 60)} min, and in every call of their endpoint that has room to spare (at no cost).`,
        ]
      : []),
    ...(p.fxPairs
      ? [`${p.fxPairs} FX pairs convert your positions, asked every ~${p.fxEverySec ?? 60} s.`]
      : []),
    ...(p.why ?? []),
  ].join(' ')
}
