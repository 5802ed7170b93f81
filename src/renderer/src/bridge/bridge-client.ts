import {
  COMMANDS,
  CommandOutcomeSchema,
  EventSchema,
  isCommandName,
  type BridgeEvent,
  type CommandName,
  type CommandParams,
  type CommandResult,
  type TickdeskApi,
} from '../../../shared/bridge'
import { BridgeError } from './bridge-error'
import { commandDeadline } from './deadlines'

/**
 * The one bridge client: the TickdeskApi over a transport that carries commands to the host and
 * its events back. Two transports exist, each small: Electron's preload (ipc-transport.ts) and
 * the browser host's socket (socket-transport.ts); tests drive the same client over either.
 *
 * Everything the host sends is parsed here against the contract (validate on the receiving
 * side): an outcome by CommandOutcomeSchema, a result by its command's schema, an event by
 * EventSchema. A failure becomes a BridgeError with the host's code; a host that does not answer
 * within the command's deadline (deadlines.ts) ends in TIMEOUT; anything outside the contract is
 * BAD_FRAME (results) or dropped (events).
 */
export interface BridgeTransport {
  readonly host: TickdeskApi['host']
  /**
   * Carries one command; `outcome` resolves with what the host answered (unparsed) or rejects
   * with a BridgeError when the transport failed; `cancel` gives up waiting (the deadline).
   */
  request(name: CommandName, params: unknown): { outcome: Promise<unknown>; cancel(): void }
  /** Every event the host sends, unparsed. */
  subscribe(listener: (raw: unknown) => void): () => void
}

export interface BridgeClientOptions {
  /** Overrides commandDeadline() for every command (tests). */
  requestTimeoutMs?: number
  setTimer?: (fn: () => void, ms: number) => unknown
  clearTimer?: (handle: unknown) => void
}

export function createBridgeClient(
  transport: BridgeTransport,
  options: BridgeClientOptions = {},
): TickdeskApi {
  const setTimer = options.setTimer ?? ((fn, ms): unknown => setTimeout(fn, ms))
  const clearTimer =
    options.clearTimer ?? ((h): void => clearTimeout(h as ReturnType<typeof setTimeout>))

  /** The host's raw answer, or TIMEOUT once the command's deadline passed. */
  function answerOf(name: CommandName, params: unknown): Promise<unknown> {
    const sent = transport.request(name, params)
    return new Promise((resolve, reject) => {
      const timer = setTimer(
        () => {
          sent.cancel()
          reject(new BridgeError('TIMEOUT', `${name} got no answer`))
        },
        options.requestTimeoutMs ?? commandDeadline(name),
      )
      sent.outcome.then(
        (raw) => {
          clearTimer(timer)
          resolve(raw)
        },
        (err: unknown) => {
          clearTimer(timer)
          reject(asBridgeError(err))
        },
      )
    })
  }

  async function invoke<N extends CommandName>(
    name: N,
    params: CommandParams<N>,
  ): Promise<CommandResult<N>> {
    if (!isCommandName(name)) throw new BridgeError('BAD_COMMAND', String(name))
    return resultOf(name, await answerOf(name, params))
  }

  function subscribe(listener: (event: BridgeEvent) => void): () => void {
    return transport.subscribe((raw) => {
      const event = EventSchema.safeParse(raw)
      if (event.success) listener(event.data)
    })
  }

  return { invoke, subscribe, host: transport.host }
}

/** A host's answer to `name` read against the contract: its result, or the error it carries. */
function resultOf<N extends CommandName>(name: N, raw: unknown): CommandResult<N> {
  const outcome = CommandOutcomeSchema.safeParse(raw)
  if (!outcome.success) throw new BridgeError('BAD_FRAME', `Host sent an invalid ${name} reply`)
  if (!outcome.data.ok) throw new BridgeError(outcome.data.error.code, outcome.data.error.message)
  const result = COMMANDS[name].result.safeParse(outcome.data.result)
  if (!result.success) throw new BridgeError('BAD_FRAME', `Host sent an invalid ${name} result`)
  return result.data as CommandResult<N>
}

function asBridgeError(err: unknown): BridgeError {
  if (err instanceof BridgeError) return err
  return new BridgeError('BRIDGE_DOWN', err instanceof Error ? err.message : String(err))
}
