import { ipcMain, type BrowserWindow, type IpcMainInvokeEvent } from 'electron'
import type { AppHostApi } from '../app/host-api'
import { answerBridgeRequest, failure } from '../app/bridge-requests'
import type { BridgeEvent, CommandOutcome, Snapshot } from '../shared/bridge'
import { encodeQuoteFrame } from '../shared/quote-frame'
import { EVENT_CHANNEL, INVOKE_CHANNEL } from '../preload/channels'

/**
 * The Electron transport of the bridge contract (src/shared/bridge.ts). Before the app sees a
 * call, the sender frame must be our own page (a foreign frame or a navigated-away page gets
 * nothing); the rest is the host side every transport shares (app/bridge-requests.ts).
 */
type InvokeSender = Pick<IpcMainInvokeEvent, 'senderFrame'>

export async function handleInvoke(
  app: Pick<AppHostApi, 'invoke'>,
  isAppUrl: (url: string) => boolean,
  event: InvokeSender,
  payload: unknown,
): Promise<CommandOutcome<unknown>> {
  const frameUrl = event.senderFrame?.url
  if (typeof frameUrl !== 'string' || !isAppUrl(frameUrl))
    return failure('FORBIDDEN', 'The request did not come from the Tickdesk window')
  return answerBridgeRequest(app, payload)
}

/** Registers the 'tickdesk:invoke' handler; returns its removal. */
export function registerBridgeIpc(
  app: Pick<AppHostApi, 'invoke'>,
  isAppUrl: (url: string) => boolean,
): () => void {
  ipcMain.handle(INVOKE_CHANNEL, (event, payload: unknown) =>
    handleInvoke(app, isAppUrl, event, payload),
  )
  return () => ipcMain.removeHandler(INVOKE_CHANNEL)
}

/**
 * Forwards the app's events to every Tickdesk window (main and ticker strip) as they come: the
 * app already batches quotes (one batch per ~16 ms), so main adds no buffering. A destroyed or
 * not-yet-created window is skipped.
 *
 * Quote frames go only to windows a trader can see. A hidden (closed to the tray) or minimised
 * window gets none, so its renderer decodes, stores and lays out nothing all day (the engine and
 * its alerts run in main regardless); it is marked behind instead, and when it shows or is
 * restored it gets one frame with every current quote (from getSnapshot) before the next delta.
 * Every other event (statuses, lists, alerts, settings) still reaches it: they are rare and
 * carry state a frame cannot rebuild.
 */
export function forwardEvents(
  app: Pick<AppHostApi, 'subscribe' | 'invoke'>,
  getWindows: () => ReadonlyArray<BrowserWindow | null>,
): () => void {
  const behind = new WeakSet<BrowserWindow>()
  const watched = new WeakSet<BrowserWindow>()
  const catchUp = async (win: BrowserWindow): Promise<void> => {
    if (!behind.has(win) || !inView(win)) return
    behind.delete(win)
    const outcome = await app.invoke('getSnapshot', {})
    if (!outcome.ok || !inView(win)) return
    const { quotes } = outcome.result as Snapshot
    sendToWindow(win, { type: 'quotes', frame: encodeQuoteFrame(quotes) })
  }
  const watch = (win: BrowserWindow): void => {
    if (watched.has(win)) return
    watched.add(win)
    win.on('show', () => void catchUp(win))
    win.on('restore', () => void catchUp(win))
  }
  return app.subscribe((event) => {
    for (const win of getWindows()) {
      if (!win || win.isDestroyed()) continue
      watch(win)
      if (event.type === 'quotes' && !inView(win)) behind.add(win)
      else sendToWindow(win, event)
    }
  })
}

function inView(win: BrowserWindow): boolean {
  return !win.isDestroyed() && win.isVisible() && !win.isMinimized()
}

export function sendToWindow(win: BrowserWindow | null, event: BridgeEvent): void {
  if (!win || win.isDestroyed() || win.webContents.isDestroyed()) return
  win.webContents.send(EVENT_CHANNEL, event)
}
