import { PRIORITY } from '../core/feed-planner'

/**
 * Stream priorities of watched symbols (FeedPlanner: visible 3 > alerted 2 > pinned 1 > other 0):
 * what the trader looks at streams first, then what can fire an alert, then the tray's prices.
 */
export function watchPriorities(opts: {
  pinned: Iterable<string>
  alerted: Iterable<string>
  visible: Iterable<string>
}): Map<string, number> {
  const priorities = new Map<string, number>()
  for (const key of opts.pinned) priorities.set(key, PRIORITY.pinned)
  for (const key of opts.alerted) priorities.set(key, PRIORITY.alerted)
  for (const key of opts.visible) priorities.set(key, PRIORITY.visible)
  return priorities
}
