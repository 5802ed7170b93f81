import type { BrowserWindow, MessageBoxOptions } from 'electron'
import { dialog } from 'electron'

/**
 * The confirmation a moved base URL needs before the kept API key goes to it (issue 38,
 * finding 1). It is asked by the main process, outside the page: a page (or a script that took it
 * over) can change the base URL but cannot answer this. "Keep it here" is the default and the
 * answer to Escape.
 */
export function keyHostDialog(change: { from: string; to: string }): MessageBoxOptions {
  return {
    type: 'warning',
    buttons: ['Keep the key where it was', `Send the key to ${change.to}`],
    defaultId: 0,
    cancelId: 0,
    noLink: true,
    title: 'Tickdesk: API key',
    message: `Send your API key to ${change.to}?`,
    detail: `The key was entered for ${change.from}. The base URL now points at ${change.to}. If you did not change it yourself, keep the key where it was: live prices stop (the rows keep their last ones) until you enter the key again.`,
  }
}

/** The confirm function the Electron host injects into the app service. */
export function confirmKeyHostInDialog(
  window: () => BrowserWindow | null,
): (change: { from: string; to: string }) => Promise<boolean> {
  return async (change) => {
    const parent = window()
    const options = keyHostDialog(change)
    const answer = parent
      ? await dialog.showMessageBox(parent, options)
      : await dialog.showMessageBox(options)
    return answer.response === 1
  }
}
