import { PRIORITY } from '../../core/feed/feed-planner'

/**
 * Stream priorities of watched symbols (FeedPlanner: visible 3 > alerted 2 > pinned 1 > other 0 >
 * background -1): what the trader looks at streams first, then what can fire an alert, then the
 * tray's prices. Lists out of view: once a window has said what is on screen (visible not
 * empty), the listed symbols it does not show, with no alert and not pinned, are background:
 * they stream last and are polled at most every 30 s (poll-queue.ts BACKGROUND_POLL_MS), so
 * the budget goes to what the trader sees or is warned about. With no window (the CLI, a browser
 * host no page has opened) nothing is background.
 */
export function watchPriorities(opts: {
  pinned: Iterable<string>
  alerted: Iterable<string>
  visible: Iterable<string>
  listed?: Iterable<string>
}): Map<string, number> {
  const priorities = new Map<string, number>()
  const visible = [...opts.visible]
  if (visible.length > 0)
    for (const key of opts.listed ?? []) priorities.set(key, PRIORITY.background)
  for (const key of opts.pinned) priorities.set(key, PRIORITY.pinned)
  for (const key of opts.alerted) priorities.set(key, PRIORITY.alerted)
  for (const key of visible) priorities.set(key, PRIORITY.visible)
  return priorities
}
