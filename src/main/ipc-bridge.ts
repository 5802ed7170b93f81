import { ipcMain, type BrowserWindow, type IpcMainInvokeEvent } from 'electron'
import { z } from 'zod'
import type { AppHostApi } from '../app/host-api'
import { isTickdeskError } from '../core/errors'
import type { BridgeEvent, CommandOutcome, Snapshot } from '../shared/bridge'
import { encodeQuoteFrame } from '../shared/quote-frame'
import { EVENT_CHANNEL, INVOKE_CHANNEL } from '../preload/channels'

/**
 * The Electron transport of the bridge contract (src/shared/bridge.ts). Before the app sees a
 * call, the sender frame must be our own page (a foreign frame or a navigated-away page gets
 * nothing) and the payload must be a `{ command, params }` envelope. The command name and its
 * params are checked in one place, by the app (app/commands.ts invokeCommand), with the same
 * message whichever host carried them. Handlers return a CommandOutcome instead of throwing,
 * because a thrown error loses its code over IPC (electron#24427).
 */
const InvokeRequestSchema = z.object({ command: z.string().max(64), params: z.unknown() })

function failure(code: string, message: string): CommandOutcome<never> {
  return { ok: false, error: { code, message } }
}

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
  const request = InvokeRequestSchema.safeParse(payload)
  if (!request.success) return failure('INVALID_INPUT', 'Expected { command, params }')
  const { command, params } = request.data
  try {
    // The raw params: the app parses them (once: parsing twice is not idempotent for patches,
    // zod 4 fills .default()s inside .partial(), so a parsed SettingsPatch would reset every
    // setting it did not mention).
    return await app.invoke(command, params)
  } catch (error) {
    // AppHostApi.invoke promises never to throw; if it does, the renderer still gets a value.
    if (isTickdeskError(error)) return failure(error.code, error.message)
    return failure('INTERNAL', `${command} failed`)
  }
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
