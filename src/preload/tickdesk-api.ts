import type {
  BridgeEvent,
  CommandName,
  CommandOutcome,
  CommandParams,
  CommandResult,
  TickdeskApi,
} from '../shared/bridge'
import { EVENT_CHANNEL, INVOKE_CHANNEL } from './channels'

/**
 * The part of ipcRenderer the API needs. Only types come from ../shared: the preload bundle must
 * stay free of zod (it runs sandboxed; the renderer validates events itself).
 */
export interface IpcRendererPort {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown
}

/** An Error that keeps the command's error code, since a thrown error loses it over IPC (electron#24427). */
export interface BridgeError extends Error {
  code: string
}

function isOutcome(value: unknown): value is CommandOutcome<unknown> {
  if (typeof value !== 'object' || value === null || !('ok' in value)) return false
  if (value.ok === true) return 'result' in value
  if (value.ok !== false || !('error' in value)) return false
  const error = value.error
  return (
    typeof error === 'object' &&
    error !== null &&
    'code' in error &&
    typeof error.code === 'string' &&
    'message' in error &&
    typeof error.message === 'string'
  )
}

function bridgeError(code: string, message: string): BridgeError {
  const error = new Error(message) as BridgeError
  error.name = 'TickdeskError'
  error.code = code
  return error
}

/**
 * Builds window.tickdesk for the Electron host: one invoke for every command, one subscribe for
 * all events, and nothing else (never ipcRenderer itself, never process.env).
 */
export function createTickdeskApi(ipc: IpcRendererPort): TickdeskApi {
  const invoke = async <N extends CommandName>(
    name: N,
    params: CommandParams<N>,
  ): Promise<CommandResult<N>> => {
    const outcome: unknown = await ipc.invoke(INVOKE_CHANNEL, { command: name, params })
    if (!isOutcome(outcome)) throw bridgeError('BAD_RESPONSE', `Malformed reply to ${String(name)}`)
    if (!outcome.ok) throw bridgeError(outcome.error.code, outcome.error.message)
    return outcome.result as CommandResult<N>
  }

  const subscribe = (listener: (event: BridgeEvent) => void): (() => void) => {
    // The IpcRendererEvent carries `sender` (the ipcRenderer): it must never reach the page.
    const wrapped = (_event: unknown, payload: unknown): void => listener(payload as BridgeEvent)
    ipc.on(EVENT_CHANNEL, wrapped)
    return () => {
      ipc.removeListener(EVENT_CHANNEL, wrapped)
    }
  }

  return { invoke, subscribe, host: 'electron' }
}
