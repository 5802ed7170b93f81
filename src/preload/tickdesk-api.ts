import type { CommandName, PreloadApi } from '../shared/bridge'
import { isCommandOutcome, plainOutcome, type CommandOutcome } from '../shared/command-outcome'
import { EVENT_CHANNEL, INVOKE_CHANNEL } from './channels'

/**
 * The part of ipcRenderer the API needs. From ../shared only types and command-outcome.ts (which
 * imports nothing): the preload bundle must stay free of zod (it runs sandboxed; the renderer
 * validates results and events itself).
 */
export interface IpcRendererPort {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown
}

function failure(code: string, message: string): CommandOutcome<never> {
  return { ok: false, error: { code, message } }
}

/**
 * Builds window.tickdesk for the Electron host: one invoke for every command, one subscribe for
 * all events, and nothing else (never ipcRenderer itself, never process.env). invoke always
 * resolves with a plain CommandOutcome: a rejected Error would cross contextBridge with its
 * message only, so the renderer could no longer tell MARKET_NOT_ENABLED from UNAUTHORIZED.
 */
export function createTickdeskApi(ipc: IpcRendererPort): PreloadApi {
  const invoke = async (name: CommandName, params: unknown): Promise<CommandOutcome<unknown>> => {
    let outcome: unknown
    try {
      outcome = await ipc.invoke(INVOKE_CHANNEL, { command: name, params })
    } catch {
      // No handler yet (main still starting) or the frame is going away.
      return failure('BRIDGE_DOWN', `${String(name)} could not reach the Tickdesk host`)
    }
    if (!isCommandOutcome(outcome))
      return failure('BAD_RESPONSE', `Malformed reply to ${String(name)}`)
    // A fresh plain object: only ok/result/error cross, whatever else main might attach.
    return plainOutcome(outcome)
  }

  const subscribe = (listener: (event: unknown) => void): (() => void) => {
    // The IpcRendererEvent carries `sender` (the ipcRenderer): it must never reach the page.
    const wrapped = (_event: unknown, payload: unknown): void => listener(payload)
    ipc.on(EVENT_CHANNEL, wrapped)
    return () => {
      ipc.removeListener(EVENT_CHANNEL, wrapped)
    }
  }

  return { invoke, subscribe, host: 'electron' }
}
