import type { AlertCondition } from './alert'

/**
 * A rule's condition in the words every host shows (the alerts panel, `tickdesk alerts list`,
 * the runner's log), so the CLI and the app never describe one rule two ways.
 */
export function describeCondition(condition: AlertCondition): string {
  switch (condition.kind) {
    case 'above':
      return `above ${condition.price}`
    case 'below':
      return `below ${condition.price}`
    case 'crosses':
      return `crosses ${condition.price}`
    case 'dayChangePct':
      return `day change ${condition.pct > 0 ? '≥ +' : '≤ '}${condition.pct}%`
    case 'movePct':
      return `moves ${condition.pct}% in ${condition.minutes} min`
    case 'channel':
      return `${condition.on === 'enter' ? 'enters' : 'leaves'} ${condition.low}–${condition.high}`
  }
}
