/**
 * The command line that shows one desktop notification. The title and the
 * body (alert text: a note the user typed, a symbol the service named) are passed as separate
 * arguments and never become code: on macOS the AppleScript is a fixed text that reads them from
 * `argv`; notify-send gets `--` first, so a body starting with `-` is not read as an option.
 */
export const NOTIFY_SCRIPT = [
  'on run argv',
  'display notification (item 2 of argv) with title (item 1 of argv)',
  'end run',
]

export function notificationArgs(platform: NodeJS.Platform, title: string, body: string): string[] {
  if (platform === 'darwin') return [...NOTIFY_SCRIPT.flatMap((line) => ['-e', line]), title, body]
  return ['--app-name=Tickdesk', '--', title, body]
}
