import type { BrowserWindow, MessageBoxOptions } from 'electron'
import { dialog } from 'electron'
import { keyMoveWords, type ConfirmKeyMove, type KeyMove } from '../app/keys/key-move'

/**
 * The confirmation a key needs before it goes to an origin it was not entered for, asked by the
 * main process, outside the page: a page (or a script that took it over) can change the base URL
 * or enter a key, but cannot answer this. The words (app/keys/key-move.ts) name both origins in
 * full and call out a step down to plain http or another port. The app asks one question at a
 * time and binds exactly the origins the question named; "Keep the key where it was" (or "Do not
 * use it") is the default and the answer to Escape.
 */
export function keyHostDialog(move: KeyMove): MessageBoxOptions {
  const words = keyMoveWords(move)
  return {
    type: 'warning',
    buttons: [words.no, words.yes],
    defaultId: 0,
    cancelId: 0,
    noLink: true,
    title: words.title,
    message: words.question,
    detail: words.details.join('\n\n'),
  }
}

/** The confirmation the Electron host injects into the app service. */
export function confirmKeyMoveInDialog(window: () => BrowserWindow | null): {
  confirm: ConfirmKeyMove
  where: string
} {
  return {
    where: 'in the dialog Tickdesk shows',
    confirm: async (move) => {
      const parent = window()
      const options = keyHostDialog(move)
      const answer = parent
        ? await dialog.showMessageBox(parent, options)
        : await dialog.showMessageBox(options)
      return answer.response === 1
    },
  }
}
