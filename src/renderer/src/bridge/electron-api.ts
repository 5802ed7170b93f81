import {
  COMMANDS,
  ErrorPayloadSchema,
  EventSchema,
  isCommandName,
  type BridgeEvent,
  type CommandName,
  type CommandParams,
  type CommandResult,
  type PreloadApi,
  type TickdeskApi,
} from '../../../shared/bridge'
import { z } from 'zod'
import { BridgeError } from './bridge-error'

/**
 * The TickdeskApi over Electron's preload. The preload resolves every command with its
 * CommandOutcome (a rejected Error would lose its code crossing contextBridge, electron#24427);
 * here a failure becomes a BridgeError with the host's code again, and results and events are
 * parsed against the contract, exactly as the web bridge does (ARCHITECTURE: validate on the
 * receiving side).
 */
const OutcomeSchema = z.union([
  z.object({ ok: z.literal(true), result: z.unknown() }),
  z.object({ ok: z.literal(false), error: ErrorPayloadSchema }),
])

export function createElectronApi(port: PreloadApi): TickdeskApi {
  async function invoke<N extends CommandName>(
    name: N,
    params: CommandParams<N>,
  ): Promise<CommandResult<N>> {
    if (!isCommandName(name)) throw new BridgeError('BAD_COMMAND', String(name))
    let raw: unknown
    try {
      raw = await port.invoke(name, params)
    } catch (err) {
      throw new BridgeError('BRIDGE_DOWN', err instanceof Error ? err.message : String(err))
    }
    const outcome = OutcomeSchema.safeParse(raw)
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
