import {
  COMMANDS,
  CommandOutcomeSchema,
  EventSchema,
  isCommandName,
  type BridgeEvent,
  type CommandName,
  type CommandParams,
  type CommandResult,
  type PreloadApi,
  type TickdeskApi,
} from '../../../shared/bridge'
import { BridgeError } from './bridge-error'
import { commandDeadline } from './deadlines'

/**
 * The TickdeskApi over Electron's preload. The preload resolves every command with its
 * CommandOutcome (a rejected Error would lose its code crossing contextBridge, electron#24427);
 * here a failure becomes a BridgeError with the host's code again, and results and events are
 * parsed against the contract, exactly as the web bridge does (ARCHITECTURE: validate on the
 * receiving side).
 */

export interface ElectronApiOptions {
  /** Overrides commandDeadline() for every command (tests). */
  requestTimeoutMs?: number
  setTimer?: (fn: () => void, ms: number) => unknown
  clearTimer?: (handle: unknown) => void
}

export function createElectronApi(port: PreloadApi, options: ElectronApiOptions = {}): TickdeskApi {
  const setTimer = options.setTimer ?? ((fn, ms): unknown => setTimeout(fn, ms))
  const clearTimer =
    options.clearTimer ?? ((h): void => clearTimeout(h as ReturnType<typeof setTimeout>))

  /** A main process that never answers (a stuck keychain, a hung handler) ends as TIMEOUT. */
  function answerOf(name: CommandName, params: unknown): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const timer = setTimer(
        () => reject(new BridgeError('TIMEOUT', `${name} got no answer`)),
        options.requestTimeoutMs ?? commandDeadline(name),
      )
      port.invoke(name, params).then(
        (raw) => {
          clearTimer(timer)
          resolve(raw)
        },
        (err: unknown) => {
          clearTimer(timer)
          reject(new BridgeError('BRIDGE_DOWN', err instanceof Error ? err.message : String(err)))
        },
      )
    })
  }

  async function invoke<N extends CommandName>(
    name: N,
    params: CommandParams<N>,
  ): Promise<CommandResult<N>> {
    if (!isCommandName(name)) throw new BridgeError('BAD_COMMAND', String(name))
    const raw = await answerOf(name, params)
    const outcome = CommandOutcomeSchema.safeParse(raw)
    if (!outcome.success) throw new BridgeError('BAD_FRAME', `Host sent an invalid ${name} reply`)
    if (!outcome.data.ok) {
      throw new BridgeError(outcome.data.error.code, outcome.data.error.message)
    }
    const result = COMMANDS[name].result.safeParse(outcome.data.result)
    if (!result.success) throw new BridgeError('BAD_FRAME', `Host sent an invalid ${name} result`)
    return result.data as CommandResult<N>
  }

  function subscribe(listener: (event: BridgeEvent) => void): () => void {
    return port.subscribe((raw) => {
      const event = EventSchema.safeParse(raw)
      if (event.success) listener(event.data)
    })
  }

  return { invoke, subscribe, host: 'electron' }
}
