/**
 * The two IPC channels of the Electron bridge. Kept in a file with no imports so the sandboxed
 * preload bundle stays tiny; main imports the same constants so the names cannot drift.
 */
/** Renderer -> main: ipcRenderer.invoke(INVOKE_CHANNEL, { command, params }) -> CommandOutcome. */
export const INVOKE_CHANNEL = 'tickdesk:invoke'
/** Main -> renderer: webContents.send(EVENT_CHANNEL, BridgeEvent). */
export const EVENT_CHANNEL = 'tickdesk:event'
