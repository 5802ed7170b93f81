import type { FeedStatus } from '../../../shared/status'

/**
 * The status bar's words. E2E tests and traders both read these exactly, so they are fixed:
 * "Live", "Polling", "Reconnecting in N s", "Offline", "Paused: quota", "Paused: rate limit",
 * "Stopped: <code>", "Connecting".
 */
export function connectionWords(status: FeedStatus, now: number): string {
  switch (status.state) {
    case 'live':
      return 'Live'
    case 'connecting':
      return 'Connecting'
    case 'degraded':
      // Degraded with the stream open means some markets are blocked; the feed itself is live.
      return status.stream.state === 'open' ? 'Live' : 'Polling'
    case 'offline':
      if (status.retryAt === null) return 'Offline'
      return `Reconnecting in ${Math.max(0, Math.ceil((status.retryAt - now) / 1000))} s`
    case 'paused':
      // Interface §Errors: the per-minute codes are rate limits; daily/monthly are quota.
      return status.code !== null && status.code.includes('RATE_LIMIT')
        ? 'Paused: rate limit'
        : 'Paused: quota'
    case 'stopped':
      return `Stopped: ${status.code ?? 'UNKNOWN'}`
  }
}

export type ConnectionTone = 'ok' | 'warn' | 'bad'

export function connectionTone(status: FeedStatus): ConnectionTone {
  if (status.state === 'live') return 'ok'
  if (status.state === 'degraded' || status.state === 'connecting') return 'warn'
  return 'bad'
}

/** Every list's streamed symbols against the plan's cap (the budget line counts this list). */
export function streamUsage(status: FeedStatus): string {
  return `all lists: ${status.stream.symbols} of ${status.stream.cap} stream slots`
}

export function budgetUsage(status: FeedStatus): string {
  return `${status.budget.usedLastMinute}/${status.budget.perMinute} req/min`
}

export function callsToday(status: FeedStatus): string {
  const n = status.budget.callsToday
  return `${n} call${n === 1 ? '' : 's'} today`
}
